import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_NODE_ID } from '../../db/structure.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { newNodeRow, treeRepository } from './tree.repository.js';

/**
 * Path resolution: one joined statement per depth up to 12 segments, the recursive walk beyond; both answer the
 * chain that resolved, top first, and stop at the first missing segment (on the database the suite runs on).
 */
let t: TestApp;
const DEPTH = 15;
const ids: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.folio.ctx.db;
  let parent = ROOT_NODE_ID;
  for (let i = 0; i < DEPTH; i++) {
    const id = `tree-test-${i}`;
    await db
      .insertInto('nodes')
      .values(newNodeRow(id, parent, i === 0 ? 'site' : 'folder', `n ${i}é`, '2026-11-25T00:00:00.000Z'))
      .execute();
    ids.push(id);
    parent = id;
  }
});
afterAll(async () => {
  await t.close();
});

const names = (n: number) => Array.from({ length: n }, (_, i) => `n ${i}é`);

describe('treeRepository.resolve', () => {
  it('resolves every depth, joined and recursive alike, with whole rows', async () => {
    for (let n = 1; n <= DEPTH; n++) {
      const { chain, found } = await treeRepository.resolve(t.app.folio.ctx.db, names(n));
      expect(found, `depth ${n}`).toBe(n);
      expect(chain.map((c) => c.id)).toEqual(ids.slice(0, n));
      expect(chain[n - 1]).toEqual(await treeRepository.findById(t.app.folio.ctx.db, ids[n - 1]!));
    }
  });

  it('stops at the first missing segment', async () => {
    for (const n of [2, 5, 12, 13, 15]) {
      const segments = names(n);
      const missing = Math.floor(n / 2);
      segments[missing] = 'nothing here';
      const { chain, found } = await treeRepository.resolve(t.app.folio.ctx.db, segments);
      expect(found, `depth ${n}, missing at ${missing}`).toBe(missing);
      expect(chain.map((c) => c.id)).toEqual(ids.slice(0, missing));
    }
    expect((await treeRepository.resolve(t.app.folio.ctx.db, ['nothing', ...names(3)])).found).toBe(0);
  });
});
