import type { AppContext } from '../../lib/context.js';

/** Deletes blobs whose rows are gone (after the commit); a failure is logged, never thrown at the client. */
export async function deleteBlobs(ctx: AppContext, keys: Iterable<string>): Promise<void> {
  for (const key of keys) {
    try {
      await ctx.blobs.delete(key);
    } catch (err) {
      ctx.log.warn({ err, key }, 'could not delete a blob whose asset is gone');
    }
  }
}

/** A new blob with the same bytes (blobs are immutable and never shared between two assets). */
export async function copyBlob(ctx: AppContext, key: string): Promise<string> {
  const source = await ctx.blobs.get(key);
  return (await ctx.blobs.put(source)).key;
}
