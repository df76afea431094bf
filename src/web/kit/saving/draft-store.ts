import { createStore, del, entries, get, set, type UseStore } from 'idb-keyval';

/*
 * Unsaved edits kept in the browser's IndexedDB as the user types, so a reload, a crash, a closed tab or a
 * session that ended never loses them. One draft per user, kind of item and path; it remembers the ETag of the
 * version the edits started from (to tell later whether the server copy changed since) and when it was written.
 */

/** Which draft: whose, of what kind of item (`page`, `asset`), at which path. */
export interface DraftKey {
  user: string;
  kind: string;
  path: string;
}

/** A kept draft: the editor's own data, the ETag its edits started from and when it was last written. */
export interface Draft<T> extends DraftKey {
  /** ETag of the server version the edits were made on (null: the item was new). */
  baseEtag: string | null;
  /** When the draft was last written (ms since the epoch). */
  savedAt: number;
  data: T;
}

/** Where drafts live. `createDraftStore()` is the browser's IndexedDB; tests may pass another idb-keyval store. */
export interface DraftStore {
  get<T>(key: DraftKey): Promise<Draft<T> | undefined>;
  put<T>(key: DraftKey, draft: { baseEtag: string | null; data: T; savedAt?: number }): Promise<Draft<T>>;
  remove(key: DraftKey): Promise<void>;
  /** Every draft of a user (newest first), e.g. to list unsaved work. */
  list(user: string): Promise<Draft<unknown>[]>;
}

const DB_NAME = 'folio-drafts';
const STORE_NAME = 'drafts';

const idOf = (key: DraftKey): IDBValidKey => [key.user, key.kind, key.path];

/** A draft store over an idb-keyval store (IndexedDB database `folio-drafts` by default). */
export function createDraftStore(store: UseStore = createStore(DB_NAME, STORE_NAME)): DraftStore {
  return {
    get: async <T>(key: DraftKey) => (await get<Draft<T>>(idOf(key), store)) ?? undefined,
    put: async <T>(key: DraftKey, d: { baseEtag: string | null; data: T; savedAt?: number }) => {
      const draft: Draft<T> = { ...key, baseEtag: d.baseEtag, savedAt: d.savedAt ?? Date.now(), data: d.data };
      await set(idOf(key), draft, store);
      return draft;
    },
    remove: (key) => del(idOf(key), store),
    list: async (user) =>
      (await entries<IDBValidKey, Draft<unknown>>(store))
        .map(([, d]) => d)
        .filter((d) => d.user === user)
        .sort((a, b) => b.savedAt - a.savedAt),
  };
}

let shared: DraftStore | undefined;

/** The app's one draft store (created on first use: IndexedDB opens only when an editor needs it). */
export function appDraftStore(): DraftStore {
  shared ??= createDraftStore();
  return shared;
}
