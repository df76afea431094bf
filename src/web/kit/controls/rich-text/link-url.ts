/** What a link's address check answers: the address to use, or why it cannot be used. */
export type LinkUrlCheck = { ok: true; url: string } | { ok: false; message: string };

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const LOOKS_LIKE_HOST = /^[\w-]+(\.[\w-]+)+(:\d+)?([/?#].*)?$/;

/**
 * Checks a link's address as typed. Web addresses (http, https), e-mail (mailto:), phone (tel:), addresses on
 * this site (`/about`) and anchors (`#top`) are links; `example.com` is taken as `https://example.com`; any other
 * scheme (javascript:, data:, file:…) is refused.
 */
export function checkLinkUrl(input: string): LinkUrlCheck {
  const url = input.trim();
  if (url === '') return { ok: false, message: 'Enter the address the link leads to.' };
  if (url.startsWith('/') || url.startsWith('#') || url.startsWith('?')) {
    return /\s/.test(url) ? { ok: false, message: 'An address has no spaces.' } : { ok: true, url };
  }
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    try {
      const parsed = new URL(url);
      if (!parsed.hostname) throw new Error('no host');
      return { ok: true, url };
    } catch {
      return { ok: false, message: 'This web address is not complete (e.g. https://example.com/page).' };
    }
  }
  if (scheme === 'mailto') {
    return /^mailto:[^@\s]+@[^@\s]+$/i.test(url.split('?')[0]!)
      ? { ok: true, url }
      : { ok: false, message: 'An e-mail link looks like mailto:name@example.com.' };
  }
  if (scheme === 'tel') {
    return /^tel:\+?[\d\s().-]{3,}$/i.test(url)
      ? { ok: true, url }
      : { ok: false, message: 'A phone link looks like tel:+44 20 7946 0000.' };
  }
  if (scheme && !LOOKS_LIKE_HOST.test(url)) {
    return { ok: false, message: `Links may lead to web pages, e-mail (mailto:) or phones (tel:), not “${scheme}:”.` };
  }
  if (LOOKS_LIKE_HOST.test(url)) return { ok: true, url: `https://${url}` };
  return { ok: false, message: 'Enter a web address (https://…), a page of this site (/…), mailto: or tel:.' };
}
