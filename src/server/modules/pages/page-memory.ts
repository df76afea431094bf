import type { PageDocByPath, PageDocRow } from './pages.repository.js';

/** A page path as last read or written by this process: what a fields-only PUT needs of it (a row, a path). */
export type RememberedPage = PageDocByPath & { row: PageDocRow };

/** How many pages a process remembers (each a row with its doc, a few kB). */
export const REMEMBERED_PAGES = 1000;

/**
 * The pages this process last read or wrote by path, so that the next fields-only PUT of one (an editor saving
 * again) is one statement: its `UPDATE` is conditional on everything the remembered row was trusted under (the
 * row's `doc_seq`, the page-doc and folder-doc epochs), so a row another request or node changed since is never
 * written over: the write then takes the fresh read. Nothing is answered from memory without such a write.
 * Bounded, least recently used first out.
 */
export function createPageMemory(limit = REMEMBERED_PAGES) {
  const pages = new Map<string, RememberedPage>();
  return {
    get(path: string): RememberedPage | undefined {
      const page = pages.get(path);
      if (page) {
        pages.delete(path);
        pages.set(path, page);
      }
      return page;
    },
    set(path: string, page: RememberedPage): void {
      pages.delete(path);
      pages.set(path, page);
      if (pages.size > limit) pages.delete(pages.keys().next().value!);
    },
    forget(path: string): void {
      pages.delete(path);
    },
    get size(): number {
      return pages.size;
    },
  };
}

/** `seq` plus one, of the type it was read as (PostgreSQL answers a bigint as a string, SQLite as a number). */
export function nextSeq(seq: string | number): string | number {
  return typeof seq === 'number' ? seq + 1 : String(BigInt(seq) + 1n);
}
