import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite, { SQLITE_PACKAGE, type SqliteConnection } from '../db/sqlite-driver.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { GENERATION_SLOTS } from '../db/migrations/0110-generation-slots.js';
import { GENERATION_BUMP_WITH, openChangeGeneration, type ChangeGeneration } from './change-generation.js';

/** The SQLite change generation: every commit by any connection, in this process or another, changes it. */
let dir: string;
let writer: SqliteConnection | undefined;
let generation: ChangeGeneration | undefined;
afterEach(async () => {
  await generation?.close();
  writer?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function open(journalMode: 'wal' | 'delete') {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-generation-'));
  const file = path.join(dir, 'folio.db');
  writer = new SQLite(file);
  writer.pragma(`journal_mode = ${journalMode}`);
  writer.exec('create table t (v integer)');
  generation = openChangeGeneration({ dialect: 'sqlite', db: undefined as never, sqlitePath: file });
  return file;
}

describe.each(['wal', 'delete'] as const)('SQLite change generation (journal_mode %s)', (journalMode) => {
  it('stays the same while nothing commits, and changes at each commit of another connection', async () => {
    open(journalMode);
    const g0 = await generation!.read();
    writer!.prepare('select count(*) from t').get();
    expect(await generation!.read()).toBe(g0);
    writer!.prepare('insert into t values (1)').run();
    const g1 = await generation!.read();
    expect(g1).not.toBe(g0);
    writer!.prepare('update t set v = 2').run();
    const g2 = await generation!.read();
    expect([g0, g1]).not.toContain(g2);
    expect(await generation!.read()).toBe(g2);
  });

  it('changes at a commit by another process', async () => {
    const file = open(journalMode);
    const g0 = await generation!.read();
    execFileSync(process.execPath, [
      '-e',
      `const D = require(${JSON.stringify(SQLITE_PACKAGE)}); const d = new D(${JSON.stringify(file)}); d.prepare('insert into t values (3)').run(); d.close();`,
    ]);
    expect(await generation!.read()).not.toBe(g0);
  });

  it('changes at a bump', async () => {
    open(journalMode);
    const g0 = await generation!.read();
    await generation!.bump();
    expect(await generation!.read()).not.toBe(g0);
  });
});

/**
 * The PostgreSQL read, over a stand-in for the one query it runs (`select last_value`): each query reads the
 * sequence when it starts and answers when the test lets it, as a round trip would.
 */
describe('PostgreSQL change generation reads', () => {
  function stand() {
    const s = {
      sequence: 1,
      queries: 0,
      fail: false,
      pending: [] as (() => void)[],
      /** Lets every query under way answer. */
      release() {
        for (const answer of s.pending.splice(0)) answer();
      },
    };
    const db = {
      executeQuery: async () => {
        s.queries++;
        const value = s.sequence;
        const failing = s.fail;
        await new Promise<void>((resolve) => s.pending.push(resolve));
        if (failing) throw new Error('connection lost');
        return { rows: [{ last_value: String(value) }] };
      },
    };
    const g = openChangeGeneration({ dialect: 'postgres', db: db as never });
    return { s, g };
  }
  /** Lets promise callbacks run (a query answered → the queued one starts). */
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('never answers a caller with a query that started before its call', async () => {
    const { s, g } = stand();
    const before = g.read();
    await settle();
    s.sequence = 2; // another node's write is acknowledged while that query is under way
    const after = g.read();
    s.release();
    await settle();
    s.release();
    expect(await before).toBe('0:1');
    expect(await after).toBe('0:2');
    expect(s.queries).toBe(2);
  });

  it('callers arriving while a query runs share the next one: one round trip for all of them', async () => {
    const { s, g } = stand();
    const first = g.read();
    await settle();
    const waiting = Array.from({ length: 10 }, () => g.read());
    expect(s.queries).toBe(1);
    s.release();
    await settle();
    expect(s.queries).toBe(2);
    s.release();
    expect(await first).toBe('0:1');
    expect(new Set(await Promise.all(waiting))).toEqual(new Set(['0:1']));
    // Nothing under way: the next caller starts its own query at once.
    const alone = g.read();
    await settle();
    expect(s.queries).toBe(3);
    s.release();
    expect(await alone).toBe('0:1');
  });

  it('a failed query fails its callers only; the next read queries again', async () => {
    const { s, g } = stand();
    s.fail = true;
    const failing = g.read();
    await settle();
    s.fail = false;
    const queued = g.read();
    s.release();
    await expect(failing).rejects.toThrow('connection lost');
    await settle();
    s.release();
    expect(await queued).toBe('0:1');
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL change generation, bumped inside a statement', () => {
  it('changes when the statement that carries the bump commits, not before, and only then', async () => {
    const { createTestApp } = await import('../test/harness.js');
    const t = await createTestApp();
    try {
      const { db, generation: g } = t.app.folio.ctx;
      const before = await g.read();
      // The bump inside a transaction that is still open: no reader may see it yet (a reader that did would cache
      // the data the transaction is about to replace under a generation that stays current after its commit).
      await db.transaction().execute(async (trx) => {
        await trx.executeQuery(CompiledQuery.raw(`with ${GENERATION_BUMP_WITH} select 1`));
        expect(await g.read()).toBe(before);
      });
      const after = await g.read();
      expect(after).not.toBe(before);
      // Every slot counts: bumps of different rows are all seen.
      for (let slot = 0; slot < GENERATION_SLOTS; slot++) {
        const seen = await g.read();
        await db.executeQuery(
          CompiledQuery.raw('update change_generation_slots set value = value + 1 where slot = $1', [slot]),
        );
        expect(await g.read()).not.toBe(seen);
      }
    } finally {
      await t.close();
    }
  });
});
