import { tryProvingWrite, type WriteScope } from './context.js';
import { createRemembered } from './remembered.js';

/**
 * What a guarded write of one item answers: `wrote` when its conditional `UPDATE` wrote (which also bumped the
 * change generation and proved a claimed actor), `remember` what the item is now (or, after a write of nothing,
 * as read), for the next write of it to start from.
 */
export interface Guarded<V, A> {
  answer: A;
  wrote: boolean;
  remember?: V;
}

/**
 * A write of an item without a transaction, shared by pages, folder items and assets: from the item as this
 * process last wrote it (a bounded memory by key), else from one fresh read; `write` checks access, preconditions
 * and fields on what it is given and writes one `UPDATE` on condition that what it was read under still holds
 * (the row's `doc_seq`, the epochs; with the claim's proof), answering undefined when the condition failed or
 * the item is not for this way. Nothing is answered from memory but a write: an error, a 412 or a write of
 * nothing from a remembered item is decided again on a fresh read. A claimed actor is proven by the write or
 * confirmed (tryProvingWrite); an answer tells the scope that the request needs no generation bump after it (the
 * write bumped it in its statement, or wrote nothing). Undefined: the caller takes its transactional way, after
 * `claim.confirm()`.
 */
export function createGuardedWrites<V>(limit: number) {
  const memory = createRemembered<V>(limit);
  /**
   * Per key, the write of it this process has under way (settled, never rejecting). A write of a key that has one
   * waits for it and starts from what it wrote; sent together, all but the first would fail their condition (the
   * first moved `doc_seq`), read again, and take the transactional way (PUT hot page). A write alone starts at once:
   * the map is all it costs.
   */
  const underWay = new Map<string, Promise<unknown>>();
  return function guardedWrite<A>(
    key: string,
    scope: WriteScope | undefined,
    read: () => V | undefined | Promise<V | undefined>,
    write: (item: V) => Promise<Guarded<V, A> | undefined>,
  ): Promise<A | undefined> {
    const before = underWay.get(key);
    const mine = before ? before.then(() => attempt(key, scope, read, write)) : attempt(key, scope, read, write);
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    underWay.set(key, settled);
    void settled.then(() => {
      if (underWay.get(key) === settled) underWay.delete(key);
    });
    return mine;
  };

  async function attempt<A>(
    key: string,
    scope: WriteScope | undefined,
    read: () => V | undefined | Promise<V | undefined>,
    write: (item: V) => Promise<Guarded<V, A> | undefined>,
  ): Promise<A | undefined> {
    const answer = await tryProvingWrite(scope?.claim, async () => {
      const remembered = memory.get(key);
      if (remembered !== undefined) {
        const written = await write(remembered).catch(() => undefined);
        if (written?.wrote) return kept(key, written);
        memory.forget(key);
      }
      const found = await read();
      if (found === undefined) return undefined;
      const written = await write(found);
      if (!written) memory.forget(key);
      return written && kept(key, written);
    });
    if (answer !== undefined) scope?.bumpedInStatement();
    return answer;
  }

  function kept<A>(key: string, written: Guarded<V, A>): Guarded<V, A> {
    if (written.remember === undefined) memory.forget(key);
    else memory.set(key, written.remember);
    return written;
  }
}
