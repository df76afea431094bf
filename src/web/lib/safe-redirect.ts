/** Where sign-in sends the user back to, carried in `?next=`. */
export const NEXT_PARAM = 'next';

/**
 * A `next` target that stays inside the app: an absolute path of this origin, never `//host`, `/\host`
 * or a full URL (an open redirect), and never the sign-in screen itself.
 */
export function safeNextPath(next: string | null | undefined, signInPath: string): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(next)) return '/';
  if (next === signInPath || next.startsWith(`${signInPath}?`) || next.startsWith(`${signInPath}/`)) return '/';
  return next;
}

/** The sign-in URL that brings the user back to `current` afterwards. */
export function signInPathFor(signInPath: string, current: string): string {
  const target = safeNextPath(current, signInPath);
  return target === '/' ? signInPath : `${signInPath}?${NEXT_PARAM}=${encodeURIComponent(target)}`;
}
