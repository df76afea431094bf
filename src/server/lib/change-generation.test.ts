import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openChangeGeneration, type ChangeGeneration } from './change-generation.js';

/** The SQLite change generation: every commit by any connection, in this process or another, changes it. */
let dir: string;
let writer: SQLite.Database | undefined;
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
      `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)}); d.prepare('insert into t values (3)').run(); d.close();`,
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
