import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { offThreadSha256 } from './offthread-sha256.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-sha256-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('SHA-256 on the worker thread', () => {
  it('hashes ranges of a file in the order given, several hashes interleaved', async () => {
    const a = randomBytes(3 * 1024 * 1024 + 17);
    const b = randomBytes(200_001);
    const fa = await fs.open(path.join(dir, 'a'), 'w+');
    const fb = await fs.open(path.join(dir, 'b'), 'w+');
    try {
      await fa.writeFile(a);
      await fb.writeFile(b);
      const ha = offThreadSha256();
      const hb = offThreadSha256();
      // Uneven ranges, one larger than the worker's read buffer; not awaited one by one.
      const cuts = [0, 5, 70_000, 70_001, 2_500_000, a.length];
      const updates: Promise<void>[] = [];
      for (let i = 0; i < cuts.length - 1; i++) {
        updates.push(ha.update(fa.fd, cuts[i]!, cuts[i + 1]! - cuts[i]!));
        if (i === 1) updates.push(hb.update(fb.fd, 0, b.length));
      }
      await Promise.all(updates);
      expect(await ha.digest()).toBe(sha256(a));
      expect(await hb.digest()).toBe(sha256(b));
      expect(await offThreadSha256().digest()).toBe(sha256(Buffer.alloc(0)));
    } finally {
      await fa.close();
      await fb.close();
    }
  });

  it('never gives a digest once an update failed', async () => {
    const f = await fs.open(path.join(dir, 'short'), 'w+');
    try {
      await f.writeFile(Buffer.from('only a few bytes'));
      const h = offThreadSha256();
      await expect(h.update(f.fd, 0, 1000)).rejects.toThrow(/shorter than the range/);
      await expect(h.update(f.fd, 0, 4)).rejects.toThrow(/earlier update failed/);
      await expect(h.digest()).rejects.toThrow(/earlier update failed/);
      await expect(h.digest()).rejects.toThrow(/finished/);
    } finally {
      await f.close();
    }
  });
});
