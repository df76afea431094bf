import type { PageDocByPath, PageDocRow } from './pages.repository.js';

/**
 * A page path as last read or written by this process: what a fields-only PUT needs of it (a row, a path) and,
 * after a write, its doc split at the body (`headJson` + `bodyJson` is the row's doc; page-docs.ts docWithBody).
 */
export type RememberedPage = PageDocByPath & { row: PageDocRow; headJson?: string; bodyJson?: string };

/**
 * How many pages a process remembers (each a row with its doc, a few kB): the next fields-only PUT of one (an
 * editor saving again) is one statement, conditional on everything the remembered row was trusted under (the row's
 * `doc_seq`, the page-doc and folder-doc epochs; lib/guarded-write.ts).
 */
export const REMEMBERED_PAGES = 1000;
