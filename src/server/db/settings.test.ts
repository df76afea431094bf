import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, postgresSettingsWarnings } from './database.js';

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

  const pgUrl = process.env.TEST_DATABASE_URL;
  it.skipIf(!pgUrl)('reads the server settings and logs the warning at start-up when they are off', async () => {
    const client = new pg.Client({ connectionString: pgUrl });
    client.on('error', () => {});
    await client.connect();
    const actual = (
      await client.query<{ autovacuum: string; track_counts: string }>(
        `select current_setting('autovacuum') as autovacuum, current_setting('track_counts') as track_counts`,
      )
    ).rows[0]!;
    await client.end();
    const expected = postgresSettingsWarnings(actual);

    const schema = `t_settings_${process.pid}`;
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-settings-'));
    const lines: string[] = [];
    const app = await buildApp(
      loadConfig({
        CMS_DATA_DIR: dir,
        CMS_ADMIN_PASSWORD: 'settings-test-password',
        CMS_SEED: 'false',
        LOG_LEVEL: 'warn',
        DATABASE_URL: pgUrl!,
      }),
      { pgSchema: schema, logStream: { write: (s: string) => lines.push(s) } },
    );
    try {
      expect(await app.folio.ctx.database.settingsWarnings()).toEqual(expected);
      const warned = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40);
      expect(warned.map((l) => l.msg)).toEqual(expect.arrayContaining(expected));
      if (expected.length === 0) expect(warned.some((l) => l.msg.startsWith('PostgreSQL autovacuum'))).toBe(false);
    } finally {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(app.folio.ctx.db);
      await app.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
