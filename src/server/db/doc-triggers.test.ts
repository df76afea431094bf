import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetHref, folderHref, pageHref } from '../../shared/api/paths.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { treeRepository } from '../modules/tree/tree.repository.js';
import { ADMIN, ADMIN_PASSWORD, TEST_SCHEMA_PREFIX } from '../test/harness.js';
import { MIGRATIONS, openDatabase } from './database.js';
import { renderDocTriggers } from './doc-triggers.js';
import { PER_STATEMENT, TRIGGER_ROW_KEYS } from './migrations/0380-folded-triggers.js';
import { TRIGGER_RULES } from './migrations/0391-revision-keys.js';
import type { DB } from './schema.js';

/**
 * Migration 0240: the triggers that keep stored docs true come from one description, and a database that ran
 * 0050–0230 with data answers the same after it, and stays true under writes. Migration 0380 folds the change log's,
 * the search queue's and the revisions' triggers into that description too.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const pgDb = !!pgUrl;
const schema = `${TEST_SCHEMA_PREFIX}doctrig_${process.pid}_${Date.now().toString(36)}`;
const LAST_BEFORE = '0230-workflow-rejection';
/** The migrations that fold the triggers: the old app runs without them, the new one runs them. */
const UPGRADE = ['0240-doc-triggers', '0380-folded-triggers', '0391-revision-keys'];

/** Triggers (and on PostgreSQL functions) of migrations 0050–0230: SQLite 27; PostgreSQL 18 + 13. */
const BEFORE = pgDb ? 31 : 27;
/**
 * The trigger and function definitions issue 36 counted before migration 0380 folded them (by then 0050–0370 had
 * left SQLite 35 triggers, PostgreSQL 23 triggers and 21 functions).
 */
const ISSUE_COUNT = 75;
const rendered = (pg: boolean) => renderDocTriggers(TRIGGER_RULES, TRIGGER_ROW_KEYS, pg, 'docs', PER_STATEMENT).count;

let dir: string;

/**
 * The trigger definitions the database holds: its triggers, and on PostgreSQL its functions. Since migration 0380
 * the stored docs', the change log's, the search queue's and the revisions' are all rendered from one list.
 */
async function definitions(db: Kysely<DB>): Promise<number> {
  if (!pgDb) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'trigger'`.execute(
      db,
    );
    return Number(rows[0]!.n);
  }
  const { rows } = await sql<{ n: string }>`select
      (select count(*) from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where c.relnamespace = ${schema}::regnamespace and not t.tgisinternal)
      + (select count(*) from pg_proc where pronamespace = ${schema}::regnamespace)
        as n`.execute(db);
  return Number(rows[0]!.n);
}

function config() {
  return loadConfig({
    CMS_DATA_DIR: dir,
    CMS_ADMIN_PASSWORD: ADMIN_PASSWORD,
    CMS_SEED: 'true',
    LOG_LEVEL: 'silent',
    // What is compared is what the service answers, not a cached copy.
    CMS_RESPONSE_CACHE: 'off',
    ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
  });
}

async function startApp() {
  const app = await buildApp(config(), { logger: false, pgSchema: pgDb ? schema : undefined });
  await app.ready();
  return app;
}
type App = Awaited<ReturnType<typeof startApp>>;

/** Every page, folder and asset of the tree: its GET URL. */
async function urlsOf(app: App): Promise<string[]> {
  const db = app.folio.ctx.db;
  const rows = await db.selectFrom('nodes').select(['id', 'kind']).where('parent_id', 'is not', null).execute();
  const paths = await treeRepository.pathsOf(
    db,
    rows.map((r) => r.id),
  );
  // Items in the trash have no path: no URL answers them.
  return rows
    .filter((r) => paths.has(r.id))
    .map((r) => {
      const segments = paths.get(r.id)!;
      if (r.kind === 'page') return pageHref(segments);
      if (r.kind === 'asset') return assetHref(segments);
      return folderHref(segments);
    })
    .sort();
}

/** What each URL answers (status, ETag, body), read twice so the second comes from a stored doc where one exists. */
async function answers(app: App): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const url of await urlsOf(app)) {
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ method: 'GET', url, headers: { authorization: ADMIN } });
      out[url] = `${res.statusCode} ${String(res.headers.etag)} ${res.body}`;
    }
  }
  return out;
}

async function call(app: App, method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) {
  const res = await app.inject({ method, url, headers: { authorization: ADMIN }, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode}: ${res.body}`);
}

describe('doc triggers (migration 0240)', () => {
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-doctrig-'));
  });
  afterAll(async () => {
    if (pgUrl) {
      const database = openDatabase({ databaseUrl: pgUrl, sqlitePath: path.join(dir, 'x.db') });
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db);
      await database.close();
    }
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('upgrades a database with data: the same answers, and the docs stay true under writes', async () => {
    // A database as migrations up to 0230 left it, which the app then fills (0240 and 0380 marked as run, so it
    // runs with the triggers of 0050–0230 and those 0250–0370 wrote by hand).
    const database = openDatabase({
      databaseUrl: pgUrl,
      sqlitePath: path.join(dir, 'folio.db'),
      pgSchema: pgDb ? schema : undefined,
    });
    if (pgDb) await sql`create schema if not exists ${sql.id(schema)}`.execute(database.db);
    const migrator = new Migrator({
      db: database.db,
      provider: {
        getMigrations: async () => Object.fromEntries(Object.entries(MIGRATIONS).filter(([n]) => n <= LAST_BEFORE)),
      },
      allowUnorderedMigrations: true,
      ...(pgDb ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
    expect(await definitions(database.db)).toBe(BEFORE);
    for (const name of UPGRADE) {
      await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
        database.db,
      );
    }
    await database.close();

    const old = await startApp();
    const before = await answers(old);
    await sql`delete from kysely_migration where name in (${sql.join(UPGRADE)})`.execute(old.folio.ctx.db);
    await old.close();

    const app = await startApp();
    try {
      const db = app.folio.ctx.db;
      expect(await definitions(db)).toBe(rendered(pgDb));
      expect(await answers(app)).toEqual(before);

      // Each write of what a stored doc shows: then every answer (from the docs stored before, where still trusted)
      // equals the one made from the rows with no doc stored.
      const writes: [string, 'PUT' | 'POST' | 'DELETE', string, object?][] = [
        ['a page', 'PUT', pageHref(['demo', 'index']), { templateName: 'home', displayName: 'Upgraded' }],
        ['a shared asset', 'PUT', assetHref(['Assets', 'snippets', 'contact']), { fields: { text: '<p>Call</p>' } }],
        ['a section rename', 'POST', '/cms/rest/folders/rename', { path: 'demo/about', newName: 'us' }],
        ['a page rename', 'POST', '/cms/rest/folders/rename', { path: 'demo/articles/welcome', newName: 'hello' }],
        [
          'a page move',
          'POST',
          '/cms/rest/folders/move',
          { itemPath: 'demo/articles/hello', targetFolderPath: 'demo/us' },
        ],
        ['an asset folder rename', 'POST', '/cms/rest/folders/rename', { path: 'Assets/snippets', newName: 'bits' }],
        ['a copy', 'POST', '/cms/rest/folders/copy', { itemPath: 'demo/articles', targetFolderPath: 'demo/us' }],
        ['a delete', 'DELETE', pageHref(['demo', 'us', 'hello'])],
      ];
      for (const [what, method, url, payload] of writes) {
        await call(app, method, url, payload);
        const stored = await answers(app);
        await sql`update pages set doc = null, doc_path = null, doc_etag = null, doc_seq = doc_seq + 1`.execute(db);
        await sql`update assets set doc = null, doc_path = null, doc_etag = null, doc_seq = doc_seq + 1`.execute(db);
        await sql`delete from folder_docs`.execute(db);
        expect(await answers(app), `after ${what}`).toEqual(stored);
      }
    } finally {
      await app.close();
    }
  });

  it('holds at most half of the definitions the issue counted, both dialects together', () => {
    expect(rendered(false) + rendered(true)).toBeLessThanOrEqual(ISSUE_COUNT / 2);
  });
});
