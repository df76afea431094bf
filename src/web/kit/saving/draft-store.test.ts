import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { createDraftStore, type DraftKey } from './draft-store';
import { useDraft } from './use-draft';

let dbCount = 0;
/** A draft store on a fresh IndexedDB database (fake-indexeddb), as the browser's would be. */
const freshStore = () => createDraftStore(createStore(`drafts-test-${++dbCount}`, 'drafts'));

const pageOf = (user: string, path = 'demo/articles/welcome'): DraftKey => ({ user, kind: 'page', path });

describe('draft store', () => {
  it('keeps a draft per user, kind and path with the ETag it started from and when it was written', async () => {
    const store = freshStore();
    const before = Date.now();
    await store.put(pageOf('alice'), { baseEtag: '"v1"', data: { displayName: 'Hello' } });
    await store.put(pageOf('bob'), { baseEtag: '"v2"', data: { displayName: 'Bob’s' } });
    await store.put({ user: 'alice', kind: 'asset', path: 'demo/articles/welcome' }, { baseEtag: null, data: 1 });

    const alice = await store.get<{ displayName: string }>(pageOf('alice'));
    expect(alice).toMatchObject({ user: 'alice', kind: 'page', path: 'demo/articles/welcome', baseEtag: '"v1"' });
    expect(alice?.data).toEqual({ displayName: 'Hello' });
    expect(alice!.savedAt).toBeGreaterThanOrEqual(before);
    expect((await store.get(pageOf('bob')))?.data).toEqual({ displayName: 'Bob’s' });
    expect(await store.get(pageOf('carol'))).toBeUndefined();
    expect((await store.list('alice')).map((d) => d.kind).sort()).toEqual(['asset', 'page']);

    await store.remove(pageOf('alice'));
    expect(await store.get(pageOf('alice'))).toBeUndefined();
    expect(await store.get(pageOf('bob'))).toBeDefined();
  });

  it('writes over the draft of the same item, newest first in the list', async () => {
    const store = freshStore();
    await store.put(pageOf('alice', 'demo/a'), { baseEtag: '"1"', data: 'first', savedAt: 1000 });
    await store.put(pageOf('alice', 'demo/b'), { baseEtag: '"1"', data: 'other', savedAt: 3000 });
    await store.put(pageOf('alice', 'demo/a'), { baseEtag: '"1"', data: 'second', savedAt: 2000 });
    const list = await store.list('alice');
    expect(list.map((d) => [d.path, d.data])).toEqual([
      ['demo/b', 'other'],
      ['demo/a', 'second'],
    ]);
  });
});

describe('useDraft', () => {
  it('offers the draft found when the item opens and writes nothing over it until the user decides', async () => {
    const store = freshStore();
    await store.put(pageOf('alice'), { baseEtag: '"v1"', data: 'kept edits', savedAt: 5 });
    const { result } = renderHook(() => useDraft<string>(pageOf('alice'), { store }));
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.found).toMatchObject({ data: 'kept edits', baseEtag: '"v1"', savedAt: 5 });

    // Typing before the decision does not replace what was kept.
    act(() => result.current.write('new typing', '"v2"'));
    await act(() => result.current.flush());
    expect((await store.get(pageOf('alice')))?.data).toBe('kept edits');

    // Restored: from now on the edits are kept again.
    act(() => result.current.accept());
    expect(result.current.found).toBeNull();
    act(() => result.current.write('restored and changed', '"v1"'));
    await act(() => result.current.flush());
    expect(await store.get(pageOf('alice'))).toMatchObject({ data: 'restored and changed', baseEtag: '"v1"' });
  });

  it('keeps edits as they are made and deletes them when discarded (after a save)', async () => {
    const store = freshStore();
    const { result } = renderHook(() => useDraft<string>(pageOf('alice'), { store }));
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.found).toBeNull();

    act(() => result.current.write('typed', '"v1"'));
    await waitFor(async () => expect((await store.get(pageOf('alice')))?.data).toBe('typed'));

    await act(() => result.current.discard());
    expect(await store.get(pageOf('alice'))).toBeUndefined();
  });

  it('deletes the draft it wrote when the edits are all undone, and never a found one still waiting', async () => {
    const store = freshStore();
    const { result } = renderHook(() => useDraft<string>(pageOf('alice'), { store }));
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    act(() => result.current.write('typed', '"v1"'));
    await act(() => result.current.flush());
    expect((await store.get(pageOf('alice')))?.data).toBe('typed');
    act(() => result.current.write(null, '"v1"'));
    await waitFor(async () => expect(await store.get(pageOf('alice'))).toBeUndefined());

    await store.put(pageOf('alice', 'demo/kept'), { baseEtag: '"v1"', data: 'kept edits' });
    const waiting = renderHook(() => useDraft<string>(pageOf('alice', 'demo/kept'), { store }));
    await waitFor(() => expect(waiting.result.current.found).not.toBeNull());
    act(() => waiting.result.current.write(null, '"v1"'));
    await act(() => waiting.result.current.flush());
    expect((await store.get(pageOf('alice', 'demo/kept')))?.data).toBe('kept edits');
  });

  it('writes a pending draft at once when the tab is closed', async () => {
    const store = freshStore();
    const { result } = renderHook(() => useDraft<string>(pageOf('alice'), { store }));
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    act(() => result.current.write('last words', '"v1"'));
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(async () => expect((await store.get(pageOf('alice')))?.data).toBe('last words'));
  });

  it('deletes, and does not offer, a draft found that would change nothing in the item as it is now', async () => {
    const store = freshStore();
    await store.put(pageOf('alice'), { baseEtag: '"v1"', data: 'what the item holds', savedAt: 5 });
    await store.put(pageOf('alice', 'demo/other'), { baseEtag: '"v1"', data: 'edits', savedAt: 5 });
    const changesNothing = (found: { data: string }) => found.data === 'what the item holds';

    const same = renderHook(() => useDraft<string>(pageOf('alice'), { store, changesNothing }));
    await waitFor(() => expect(same.result.current.isLoading).toBe(false));
    expect(same.result.current.found).toBeNull();
    expect(await store.get(pageOf('alice'))).toBeUndefined();
    // New edits of it are kept as usual.
    act(() => same.result.current.write('typed', '"v1"'));
    await act(() => same.result.current.flush());
    expect((await store.get(pageOf('alice')))?.data).toBe('typed');

    const other = renderHook(() => useDraft<string>(pageOf('alice', 'demo/other'), { store, changesNothing }));
    await waitFor(() => expect(other.result.current.isLoading).toBe(false));
    expect(other.result.current.found).toMatchObject({ data: 'edits' });
    expect(await store.get(pageOf('alice', 'demo/other'))).toBeDefined();
  });
});
