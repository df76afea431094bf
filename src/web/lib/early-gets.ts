/** How long an answer started early waits for the client's same GET before it is dropped. */
const KEPT_MS = 15_000;

/**
 * GETs a tab starts before its code could ask for them (main.tsx: the page editor's document, while the session
 * is checked and the screen's code arrives), handed to the client's first GET of the same URL. The client then
 * reads, checks and reports the answer as it would its own (a 401 included): only the waiting goes. A GET with
 * conditions (`if-none-match`) or another URL goes out as usual; an answer nobody asked for is dropped.
 */
export function earlyGets(fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init)) {
  const started = new Map<string, Promise<Response>>();
  return {
    /** Starts `url` now, as the client would send it (same headers, cookies). */
    start(url: string) {
      const answer = fetchImpl(url, {
        headers: { accept: 'application/json, application/problem+json', 'x-requested-with': 'XMLHttpRequest' },
        credentials: 'same-origin',
      });
      // Nobody may ever read it (signed out, another screen): a failure is the reader's to see, not unhandled.
      answer.catch(() => undefined);
      started.set(url, answer);
      setTimeout(() => started.delete(url), KEPT_MS);
    },
    /** The client's fetch: an answer started early for the same plain GET, else a request of its own. */
    fetch: ((input, init) => {
      const answer = typeof input === 'string' ? started.get(input) : undefined;
      const plain =
        (init?.method ?? 'GET') === 'GET' &&
        !new Headers(init?.headers).has('if-none-match') &&
        !new Headers(init?.headers).has('authorization');
      if (!answer || !plain) return fetchImpl(input, init);
      started.delete(input as string);
      return answer;
    }) as typeof fetch,
  };
}
