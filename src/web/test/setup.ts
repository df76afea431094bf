// Vitest setup of the 'web' project (jsdom): clean the DOM and shared state between tests, and provide the few
// browser APIs jsdom lacks that react-aria uses.
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { toastQueue } from '../components/ui/toast';

// findBy*/waitFor wait up to 1 s by default; `npm test` runs three suites side by side on two cores, where a fake
// request, its refetch and a re-render took longer than that (a Trash screen test saw it once at load 12).
configure({ asyncUtilTimeout: 5_000 });

// The app asks who is signed in only when the sign-in hint cookie is there (see SESSION_HINT_COOKIE): tests
// answer /auth/me themselves, signed in or not.
beforeEach(() => {
  document.cookie = 'folio_signed_in=1; Path=/';
});

afterEach(() => {
  cleanup();
  toastQueue.clear();
  localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
});

if (!('CSS' in globalThis) || typeof globalThis.CSS?.escape !== 'function') {
  // Minimal CSS.escape for attribute selectors in tests (identifiers here are user names).
  (globalThis as { CSS?: unknown }).CSS = {
    escape: (value: string) => value.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`),
  };
}

if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (typeof globalThis.ResizeObserver !== 'function') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

// jsdom has no layout: CodeMirror and ProseMirror measure text ranges, which answer empty boxes here.
if (typeof Range !== 'undefined' && !Range.prototype.getClientRects) {
  const empty = () => ({ x: 0, y: 0, width: 0, height: 0, top: 0, left: 0, right: 0, bottom: 0, toJSON: () => ({}) });
  Range.prototype.getBoundingClientRect = empty as unknown as Range['getBoundingClientRect'];
  Range.prototype.getClientRects = (() => ({
    length: 0,
    item: () => null,
    [Symbol.iterator]: [][Symbol.iterator],
  })) as unknown as Range['getClientRects'];
}
if (typeof document !== 'undefined' && !document.elementFromPoint) {
  document.elementFromPoint = () => null;
}
