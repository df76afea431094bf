import fs from 'node:fs';
import path from 'node:path';
import SQLite from './sqlite-driver.js';
import { Kysely, Migrator, SqliteDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import { isPostgres } from './dialect.js';
import { OwnSchemaPostgresDialect } from './pg-introspector.js';
import { statementName } from './prepared.js';
import { initial } from './migrations/0001-initial.js';
import { assetsListIndexes } from './migrations/0030-assets-list-indexes.js';
import { postgresByteOrderText } from './migrations/0040-postgres-byte-order-text.js';
import { folderAssetCounts } from './migrations/0050-folder-asset-counts.js';
import { changeGeneration } from './migrations/0060-change-generation.js';
import { nodeUpdatedBy } from './migrations/0070-node-updated-by.js';
import { pageDocs } from './migrations/0080-page-docs.js';
import { pageDocPaths } from './migrations/0090-page-doc-paths.js';
import { assetDocs } from './migrations/0100-asset-docs.js';
import { generationSlots } from './migrations/0110-generation-slots.js';
import { folderDocs } from './migrations/0130-folder-docs.js';
import { pageTouchOff } from './migrations/0140-page-touch-off.js';
import { assetTouchNode } from './migrations/0120-asset-touch-node.js';
import { assetDocTouch } from './migrations/0150-asset-doc-touch.js';
import { assetFieldsPageDocs } from './migrations/0160-asset-fields-page-docs.js';
import { leanWriteIndexes } from './migrations/0170-lean-write-indexes.js';
import { assetPageDocsWhenLinked } from './migrations/0180-asset-page-docs-when-linked.js';
import { assetOwnTimes } from './migrations/0190-asset-own-times.js';
import { folderDocBump } from './migrations/0200-folder-doc-bump.js';
import { widgetAssetRefs } from './migrations/0210-widget-asset-refs.js';
import { contentRefs } from './migrations/0220-content-refs.js';
import { workflowRejection } from './migrations/0230-workflow-rejection.js';
import { docTriggers } from './migrations/0240-doc-triggers.js';
import { changeLog } from './migrations/0250-change-log.js';
import { itemLeases } from './migrations/0260-item-leases.js';
import { leaseMirror } from './migrations/0261-lease-mirror.js';
import { searchIndex } from './migrations/0270-search-index.js';
import { revisions } from './migrations/0280-revisions.js';
import { workflowSchedule } from './migrations/0290-workflow-schedule.js';
import { leaseChanges } from './migrations/0300-lease-changes.js';
import { searchTitleIndex } from './migrations/0320-search-title-index.js';
import { trash } from './migrations/0330-trash.js';
import { dropAssetSearchText } from './migrations/0350-drop-asset-search-text.js';
import { searchQueue } from './migrations/0360-search-queue.js';
import { pageUpdateStatementTrigger } from './migrations/0370-page-update-statement-trigger.js';
import { foldedTriggers } from './migrations/0380-folded-triggers.js';
import { searchGinPending } from './migrations/0390-search-gin-pending.js';
import { revisionKeys } from './migrations/0391-revision-keys.js';
import { searchTextInNode } from './migrations/0392-search-text-in-node.js';
import { searchBackfill } from './migrations/0393-search-backfill.js';
import { searchFieldSeparator } from './migrations/0394-search-field-separator.js';
import { SEARCH_TEXT_FUNCTION, searchText } from './search-text.js';
import type { DB } from './schema.js';
import { withStatementCache } from './statement-cache.js';
import { createDurabilityBarrier, type DurabilityBarrier } from './durability.js';

/** Every migration, in order. Add new ones at the end; never edit one that has shipped. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
  '0030-assets-list-indexes': assetsListIndexes,
  '0040-postgres-byte-order-text': postgresByteOrderText,
  '0050-folder-asset-counts': folderAssetCounts,
  '0060-change-generation': changeGeneration,
  '0070-node-updated-by': nodeUpdatedBy,
  '0080-page-docs': pageDocs,
  '0090-page-doc-paths': pageDocPaths,
  '0100-asset-docs': assetDocs,
  '0110-generation-slots': generationSlots,
  '0120-asset-touch-node': assetTouchNode,
  '0130-folder-docs': folderDocs,
  '0140-page-touch-off': pageTouchOff,
  '0150-asset-doc-touch': assetDocTouch,
  '0160-asset-fields-page-docs': assetFieldsPageDocs,
  '0170-lean-write-indexes': leanWriteIndexes,
  '0180-asset-page-docs-when-linked': assetPageDocsWhenLinked,
  '0190-asset-own-times': assetOwnTimes,
  '0200-folder-doc-bump': folderDocBump,
  '0210-widget-asset-refs': widgetAssetRefs,
  '0220-content-refs': contentRefs,
  '0230-workflow-rejection': workflowRejection,
  '0240-doc-triggers': docTriggers,
  '0250-change-log': changeLog,
  '0260-item-leases': itemLeases,
  '0261-lease-mirror': leaseMirror,
  '0270-search-index': searchIndex,
  '0280-revisions': revisions,
  '0290-workflow-schedule': workflowSchedule,
  '0300-lease-changes': leaseChanges,
  '0320-search-title-index': searchTitleIndex,
  '0330-trash': trash,
  '0350-drop-asset-search-text': dropAssetSearchText,
  '0360-search-queue': searchQueue,
  '0370-page-update-statement-trigger': pageUpdateStatementTrigger,
  '0380-folded-triggers': foldedTriggers,
  '0390-search-gin-pending': searchGinPending,
  '0391-revision-keys': revisionKeys,
  '0392-search-text-in-node': searchTextInNode,
  '0393-search-backfill': searchBackfill,
  '0394-search-field-separator': searchFieldSeparator,
};

export interface DatabaseOptions {
  /** `postgres://…` for PostgreSQL; otherwise SQLite at `sqlitePath`. */
  databaseUrl?: string;
  sqlitePath: string;
  /** PostgreSQL schema to use (created when missing); lets test files run side by side. */
  pgSchema?: string;
  /** PostgreSQL connections in the pool (per node). */
  poolSize?: number;
  /** Called when an idle pooled PostgreSQL connection fails (the server restarted, the network dropped). */
  onPoolError?: (err: Error) => void;
  /** SQLite: how the WAL is synced by `durable()` (tests slow it down or fail it); fdatasync by default. */
  walSync?: (fd: number) => Promise<void>;
}

export interface Database {
  db: Kysely<DB>;
  dialect: 'sqlite' | 'postgres';
  /** Runs pending migrations. */
  migrate(): Promise<void>;
  /**
   * Resolves when every commit made before the call is on stable storage. PostgreSQL commits are (the server
   * fsyncs its WAL at commit); SQLite commits are once the WAL file is synced, which this does for every caller
   * waiting at the moment in one fdatasync (group commit, see durability.ts). Await it before acknowledging a write.
   */
  durable(): Promise<void>;
  /** SQLite: calls of `durable()` and the WAL syncs they started, so far; 0 on PostgreSQL. */
  readonly durableCalls: number;
  readonly durableSyncs: number;
  /**
   * SQLite: runs one read-only statement now, synchronously, and answers its first row: on the main connection
   * when no transaction is open on it, else on a read-only connection of its own. Either way it sees what is
   * committed and never a transaction another request has open (Kysely holds one across awaits), and a GET
   * answered with it never queues behind writers. Undefined on PostgreSQL, where every read is a round trip.
   */
  readonly readNow?: (sql: string, parameters: readonly unknown[]) => unknown;
  /** True when the database answers. */
  ping(): Promise<boolean>;
  /** SQLite `integrity_check` and foreign key check; PostgreSQL: a ping. */
  integrityCheck(): Promise<{ ok: boolean; problems: string[] }>;
  /** Server settings Folio relies on that are not as it needs them, as sentences for the log (none on SQLite). */
  settingsWarnings(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Opens the database: SQLite (WAL, synchronous=NORMAL with a group-commit barrier, foreign keys, busy timeout)
 * or PostgreSQL.
 */
export function openDatabase(opts: DatabaseOptions): Database {
  const isPg = !!opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl);
  let db: Kysely<DB>;
  let barrier: DurabilityBarrier | null = null;
  let reader: ReturnType<typeof openReader> | null = null;
  if (isPg) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      application_name: 'folio',
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
    });
    // Without a listener, an idle connection's error (a restarted server) would crash the process; the pool
    // drops that connection and opens a new one on the next query.
    pool.on('error', (err) => (opts.onPoolError ?? defaultPoolError)(err));
    db = new Kysely<DB>({ dialect: new OwnSchemaPostgresDialect({ pool: withNamedStatements(pool) }) });
  } else {
    fs.mkdirSync(path.dirname(opts.sqlitePath), { recursive: true });
    const sqlite = new SQLite(opts.sqlitePath);
    sqlite.pragma('journal_mode = WAL');
    // NORMAL: a commit does not fsync; `durable()` does, once for every writer waiting (durability.ts). In WAL
    // mode NORMAL never corrupts the database, and a process crash loses no commit.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // The full-text index's triggers call it (migration 0270): every write of content runs through it.
    sqlite.function(SEARCH_TEXT_FUNCTION, { deterministic: true }, (json: unknown) => searchText(json));
    barrier = createDurabilityBarrier({ sqlitePath: opts.sqlitePath, sync: opts.walSync });
    db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    reader = openReader(sqlite, opts.sqlitePath);
  }

  return {
    db,
    dialect: isPg ? 'postgres' : 'sqlite',
    durable: () => (barrier ? barrier.durable() : Promise.resolve()),
    ...(reader ? { readNow: reader.first } : {}),
    get durableSyncs() {
      return barrier?.syncs ?? 0;
    },
    get durableCalls() {
      return barrier?.calls ?? 0;
    },
    async migrate() {
      // Several nodes may start at once: Kysely's migrator holds a PostgreSQL advisory lock while it migrates
      // (the others wait, then find nothing left to do), and creates its own tables race-safely.
      const migrationTableSchema = isPg ? await pgMigrationSchema(db, opts.pgSchema) : undefined;
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => MIGRATIONS },
        // Kysely looks for its tables in every schema unless told which: another schema of the same database
        // (another installation, a test) would fool it.
        ...(migrationTableSchema ? { migrationTableSchema } : {}),
        // Modules number their migrations in ranges of their own (folders 0010–, pages 0020–, assets 0030–,
        // db 0040–), so one may ship after a higher number has run: pending ones run in name order.
        allowUnorderedMigrations: true,
      });
      const { error, results } = await migrator.migrateToLatest();
      const failed = results?.find((r) => r.status === 'Error');
      if (error || failed) {
        throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
      }
    },
    async ping() {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    async integrityCheck() {
      if (isPostgres(db)) return { ok: await this.ping(), problems: [] };
      const ic = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
      const fk = await sql<Record<string, unknown>>`pragma foreign_key_check`.execute(db);
      const problems = [
        ...ic.rows.map((r) => r.integrity_check).filter((r) => r !== 'ok'),
        ...fk.rows.map((r) => `foreign key: ${JSON.stringify(r)}`),
      ];
      return { ok: problems.length === 0, problems };
    },
    async settingsWarnings() {
      if (!isPostgres(db)) return [];
      const { rows } = await sql<PgSettings>`select ${sql.join(
        PG_SETTINGS_NEEDED_ON.map((name) => sql`current_setting(${name}) as ${sql.id(name)}`),
      )}`.execute(db);
      return postgresSettingsWarnings(rows[0]!);
    },
    async close() {
      reader?.close();
      await db.destroy();
      // After SQLite has closed its files: see durability.ts on why the WAL descriptor stays open until then.
      await barrier?.close();
    },
  };
}

/**
 * Synchronous reads for `Database.readNow`. The writer's own connection serves them while it has no transaction
 * open (between Kysely's statements nothing is half-done on it, and its page cache is warm: its own commits do not
 * empty it, while every commit empties a second connection's). While a transaction is open there (Kysely holds it
 * across awaits), a read-only connection of its own answers: it sees only what is committed, never that
 * transaction's changes. Statements are prepared once per connection; each read is its own read transaction.
 */
function openReader(writer: InstanceType<typeof SQLite>, sqlitePath: string) {
  const reader = new SQLite(sqlitePath, { readonly: true, fileMustExist: true });
  const prepare = (conn: InstanceType<typeof SQLite>) => {
    const statements = new Map<string, ReturnType<typeof conn.prepare>>();
    return (sql: string) => {
      let stmt = statements.get(sql);
      if (!stmt) {
        // A fixed set of prepared queries comes here; the bound only guards against a caller that builds SQL.
        if (statements.size >= 200) statements.clear();
        statements.set(sql, (stmt = conn.prepare(sql)));
      }
      return stmt;
    };
  };
  const onWriter = prepare(writer);
  const onReader = prepare(reader);
  return {
    first(sql: string, parameters: readonly unknown[]): unknown {
      const stmt = writer.inTransaction ? onReader(sql) : onWriter(sql);
      return stmt.get(parameters as unknown[]);
    },
    close: () => reader.close(),
  };
}

/**
 * The pool as Kysely sees it, whose connections run the SQL of prepared queries (db/prepared.ts) as named
 * statements: parsed and planned once per connection, then only bound and run (node-postgres keeps, per
 * connection, which names it has prepared). Every other query passes as it is.
 */
function withNamedStatements(pool: pg.Pool) {
  const wrapped = new WeakMap<pg.PoolClient, pg.PoolClient>();
  const wrap = (client: pg.PoolClient): pg.PoolClient => {
    let proxy = wrapped.get(client);
    if (!proxy) {
      const query = (text: unknown, values?: unknown[]) => {
        const name = typeof text === 'string' ? statementName(text) : undefined;
        return name ? client.query({ name, text: text as string, values }) : client.query(text as never, values);
      };
      proxy = new Proxy(client, {
        get: (target, key) => {
          if (key === 'query') return query;
          const value = Reflect.get(target, key, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      wrapped.set(client, proxy);
    }
    return proxy;
  };
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  } as unknown as pg.Pool;
}

/** PostgreSQL settings Folio needs on (see postgresSettingsWarnings). */
const PG_SETTINGS_NEEDED_ON = ['autovacuum', 'track_counts'] as const;
export type PgSettings = Record<(typeof PG_SETTINGS_NEEDED_ON)[number], string>;

/**
 * PostgreSQL refreshes the planner's statistics only through autovacuum (which needs track_counts) or ANALYZE.
 * Without it, a plan made while a table was small is kept as the table grows: the foreign-key checks of every
 * insert then scan whole tables (measured: creating an asset beside 80k others took ~10 ms instead of ~3, and
 * `ANALYZE` brought it back at once).
 */
export function postgresSettingsWarnings(settings: PgSettings): string[] {
  const off = PG_SETTINGS_NEEDED_ON.filter((name) => settings[name] === 'off');
  if (off.length === 0) return [];
  return [
    `PostgreSQL ${off.join(' and ')} ${off.length > 1 ? 'are' : 'is'} off: the planner's statistics are never ` +
      'refreshed, and as tables grow, plans made while they were small stay (foreign-key checks scan whole ' +
      'tables). Turn it on (the PostgreSQL default), or run ANALYZE after bulk changes.',
  ];
}

function defaultPoolError(err: Error) {
  process.stderr.write(`PostgreSQL connection failed while idle: ${err.message}\n`);
}

/**
 * The schema the migrations go to: `pgSchema`, created when missing (race-safe: a concurrent `create schema if
 * not exists` can still fail, so a failure is re-checked), or the connection's current schema — the first of the
 * `search_path` that exists (set one with `?options=-c%20search_path%3Dname` in DATABASE_URL).
 */
async function pgMigrationSchema(db: Kysely<DB>, pgSchema: string | undefined): Promise<string> {
  if (pgSchema) {
    try {
      await sql`create schema if not exists ${sql.id(pgSchema)}`.execute(db);
    } catch (err) {
      const r = await sql`select 1 from information_schema.schemata where schema_name = ${pgSchema}`.execute(db);
      if (r.rows.length === 0) throw err;
    }
    return pgSchema;
  }
  const r = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = r.rows[0]?.schema;
  if (!schema) {
    throw new Error('PostgreSQL: no schema of the search_path exists; create it, or fix search_path in DATABASE_URL.');
  }
  return schema;
}
