// Vitest setup of the 'web' project (jsdom): clean the DOM and shared state between tests, and provide the few
// browser APIs jsdom lacks that react-aria uses.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { toastQueue } from '../components/ui/toast';

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
