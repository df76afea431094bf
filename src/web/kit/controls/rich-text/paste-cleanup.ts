/*
 * Clipboard HTML from word processors carries their own markup: Word's `mso-*` styles, `Mso*` classes, `<o:p>`,
 * conditional comments and `<style>` blocks; Google Docs' `<b id="docs-internal-guid-…">` wrapper and spans whose
 * inline styles mean bold or italic; LibreOffice's `<meta>`, `<font>` and `<span lang>`. cleanPastedHtml keeps the
 * structure people meant (headings, paragraphs, lists, bold, italic, underline, links, tables, images) and drops
 * the rest, so pasted text looks like the site, not like the document it came from.
 */

const DROP_WHOLE = new Set(['style', 'script', 'meta', 'link', 'title', 'xml', 'head', 'o:p', 'colgroup', 'col']);
const KEEP = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'strike',
  'del',
  'code',
  'pre',
  'a',
  'ul',
  'ol',
  'li',
  'blockquote',
  'hr',
  'br',
  'img',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
]);
/** Attributes kept on pasted elements; everything else (styles, classes, ids, Word's) is the source's look. */
const KEEP_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href', 'title'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan'],
  ol: ['start', 'type'],
};

function styleMeans(style: string): { bold: boolean; italic: boolean; underline: boolean } {
  const s = style.toLowerCase().replace(/\s+/g, '');
  return {
    bold: /font-weight:(bold|[6-9]00)/.test(s),
    italic: /font-style:italic/.test(s),
    underline: /text-decoration[^;]*underline/.test(s),
  };
}

function cleanChildren(from: Node, into: Node, doc: Document) {
  for (const child of Array.from(from.childNodes)) cleanNode(child, into, doc);
}

function cleanNode(node: Node, into: Node, doc: Document) {
  if (node.nodeType === 3) {
    into.appendChild(doc.createTextNode(node.nodeValue ?? ''));
    return;
  }
  if (node.nodeType !== 1) return; // comments (Word's conditional ones included) and the rest
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  if (DROP_WHOLE.has(tag) || tag.includes(':')) return;
  // Google Docs wraps the whole clipboard in <b style="font-weight:normal" id="docs-internal-guid-…">.
  const isDocsWrapper =
    tag === 'b' &&
    (el.id.startsWith('docs-internal-guid') || /font-weight:\s*normal/i.test(el.getAttribute('style') ?? ''));
  if (isDocsWrapper) {
    cleanChildren(el, into, doc);
    return;
  }
  if (tag === 'span' || tag === 'font') {
    // What a span's style means (Docs writes bold and italic as styles) becomes the element for it.
    const meant = styleMeans(el.getAttribute('style') ?? '');
    let target: Node = into;
    for (const [flag, name] of [
      [meant.bold, 'strong'],
      [meant.italic, 'em'],
      [meant.underline, 'u'],
    ] as const) {
      if (!flag) continue;
      const wrapper = doc.createElement(name);
      target.appendChild(wrapper);
      target = wrapper;
    }
    cleanChildren(el, target, doc);
    return;
  }
  if (!KEEP.has(tag)) {
    // div, section, o:* and unknown wrappers: keep what is inside.
    cleanChildren(el, into, doc);
    return;
  }
  const out = doc.createElement(tag);
  for (const name of KEEP_ATTRIBUTES[tag] ?? []) {
    const value = el.getAttribute(name);
    if (value !== null) out.setAttribute(name, value);
  }
  if (tag === 'a' && /^\s*javascript:/i.test(out.getAttribute('href') ?? '')) out.removeAttribute('href');
  if (tag === 'img' && /^(data|file):/i.test(out.getAttribute('src') ?? '')) return; // local files cannot be shown
  cleanChildren(el, out, doc);
  // Word writes an empty paragraph as <p class=MsoNormal><o:p>&nbsp;</o:p></p>: drop paragraphs left empty.
  if (
    (tag === 'p' || /^h\d$/.test(tag)) &&
    (out.textContent ?? '').replace(/\u00a0/g, ' ').trim() === '' &&
    !out.querySelector('img, br')
  ) {
    return;
  }
  into.appendChild(out);
}

/** Clipboard HTML without the word processor's own markup (see above). */
export function cleanPastedHtml(html: string): string {
  const source = new DOMParser().parseFromString(html, 'text/html');
  const doc = document.implementation.createHTMLDocument('');
  const root = doc.createElement('div');
  cleanChildren(source.body, root, doc);
  return root.innerHTML;
}

/** True for HTML copied inside the editor itself (ProseMirror marks its slices): pasted as it is. */
export function isEditorClipboard(html: string): boolean {
  return html.includes('data-pm-slice');
}
