import type { AppContext } from '../../lib/context.js';

/**
 * Deletes blobs whose rows are gone or never were (after the commit, or after a failed upload); empty keys are
 * skipped. A failure is logged, never thrown at the client (the orphan sweep removes what is left).
 */
export async function deleteBlobs(ctx: AppContext, keys: Iterable<string | null | undefined>): Promise<void> {
  for (const key of keys) {
    if (!key) continue;
    try {
      await ctx.blobs.delete(key);
    } catch (err) {
      ctx.log.warn({ err, key }, 'could not delete a blob');
    }
  }
}

/** A new blob with the same bytes (blobs are immutable and never shared between two assets). */
export async function copyBlob(ctx: AppContext, key: string): Promise<string> {
  const source = await ctx.blobs.get(key);
  return (await ctx.blobs.put(source)).key;
}
