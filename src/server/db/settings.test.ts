import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.js';
import { openDatabase, postgresSettingsWarnings, type PgSettings } from './database.js';

describe('PostgreSQL settings Folio relies on', () => {
  it('warns when autovacuum or track_counts is off, and only then', () => {
    expect(postgresSettingsWarnings({ autovacuum: 'on', track_counts: 'on' })).toEqual([]);
    const [autovacuum] = postgresSettingsWarnings({ autovacuum: 'off', track_counts: 'on' });
    expect(autovacuum).toMatch(/^PostgreSQL autovacuum is off: .*ANALYZE/);
    const [counts] = postgresSettingsWarnings({ autovacuum: 'on', track_counts: 'off' });
    expect(counts).toMatch(/^PostgreSQL track_counts is off/);
    const both = postgresSettingsWarnings({ autovacuum: 'off', track_counts: 'off' });
    expect(both).toHaveLength(1);
    expect(both[0]).toMatch(/^PostgreSQL autovacuum and track_counts are off/);
  });

  it('SQLite has no such settings', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-settings-'));
    const database = openDatabase({ sqlitePath: path.join(dir, 's.db') });
    try {
      expect(await database.settingsWarnings()).toEqual([]);
    } finally {
      await database.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'reads the server settings and logs the warning at start-up when they are off',
    async () => {
      const lines: string[] = [];
      const t = await createTestApp({ LOG_LEVEL: 'warn' }, { logStream: { write: (s: string) => lines.push(s) } });
      try {
        // What the server says, read with SHOW (not the query under test).
        const show = async (name: keyof PgSettings) =>
          (await sql.raw<Record<string, string>>(`show ${name}`).execute(t.app.folio.ctx.db)).rows[0]![name]!;
        const expected = postgresSettingsWarnings({
          autovacuum: await show('autovacuum'),
          track_counts: await show('track_counts'),
        });
        expect(await t.app.folio.ctx.database.settingsWarnings()).toEqual(expected);
        const warned = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40);
        expect(warned.map((l) => l.msg)).toEqual(expect.arrayContaining(expected));
        if (expected.length === 0) expect(warned.some((l) => l.msg.startsWith('PostgreSQL autovacuum'))).toBe(false);
      } finally {
        await t.close();
      }
    },
  );
});
