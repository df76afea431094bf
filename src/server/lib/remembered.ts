/**
 * What a process remembers of rows between requests, so that the next write of one is one statement: a bounded
 * map, least recently used first out. Nothing here is trusted on its own: a write made from a remembered row is
 * conditional on the row's `doc_seq` (and whatever else it was trusted under), and takes a fresh read when that
 * no longer holds (guarded-write.ts).
 */
export function createRemembered<T>(limit: number) {
  const entries = new Map<string, T>();
  return {
    get(key: string): T | undefined {
      const entry = entries.get(key);
      if (entry !== undefined) {
        entries.delete(key);
        entries.set(key, entry);
      }
      return entry;
    },
    set(key: string, entry: T): void {
      entries.delete(key);
      entries.set(key, entry);
      if (entries.size > limit) entries.delete(entries.keys().next().value!);
    },
    forget(key: string): void {
      entries.delete(key);
    },
    get size(): number {
      return entries.size;
    },
  };
}

/** `seq` plus one, of the type it was read as (PostgreSQL answers a bigint as a string, SQLite as a number). */
export function nextSeq(seq: string | number): string | number {
  return typeof seq === 'number' ? seq + 1 : String(BigInt(seq) + 1n);
}
