import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';
import { changed, renderDocTriggers, type DocRule } from '../doc-triggers.js';
import { PER_STATEMENT, prune, RETAINING, TRIGGER_ROW_KEYS, TRIGGER_RULES as FOLDED } from './0380-folded-triggers.js';

/*
 * Write speed with history (issue 38 item 11): `revisions.item_id` and `live_revisions.item_id` no longer
 * reference `nodes`. Every write that records a revision paid the foreign key's check, on PostgreSQL a
 * `select … for key share` of the item's node per revision (half of the statement trigger's time in a PUT of page
 * fields, bench/NOTES.md), to guard against something that cannot happen: the revision is written by the trigger
 * of the item's own row, whose node exists. What the key did on the way out, removing an item's history with its
 * node (a purge, a folder's contents with it), a rule on `nodes` does now, in the same statement as the delete.
 *
 * SQLite cannot drop a constraint: both tables are made again without it, their rows copied.
 *
 * Every trigger is rendered again (doc-triggers.ts): on PostgreSQL a page's statement-level rules now run as one
 * statement, and the pruning only when a retention is set (below).
 */

const FORGET_HISTORY: DocRule = {
  table: 'nodes',
  on: ['delete'],
  when: `old.kind in ('page', 'asset')`,
  run: [
    (c) => `delete from revisions where item_id = old.id and ${c.guard}`,
    (c) => `delete from live_revisions where item_id = old.id and ${c.guard}`,
  ],
};

/**
 * The pruning of revisions beyond `CMS_REVISIONS_KEEP` (0280) tests the setting once, as its gate, instead of in
 * its statement: with retention off (the default) a PUT of a page no longer runs it at all on PostgreSQL, where it
 * cost as much as the revision's own insert. Gated, it runs after the item's other rules (doc-triggers.ts).
 */
const GATED_PRUNE: DocRule[] = (['pages', 'assets'] as const).map((table) => ({
  table,
  on: ['update'],
  when: changed('revision'),
  gate: RETAINING,
  run: [prune],
}));

/** Every rule, in the order each table's trigger runs them: 0380's with the pruning gated, and the history going with its node. */
export const TRIGGER_RULES: readonly DocRule[] = [
  ...FOLDED.filter((r) => !r.run?.includes(prune)),
  ...GATED_PRUNE,
  FORGET_HISTORY,
];

async function rebuildSqlite(db: Kysely<any>) {
  await sql`create table revisions_new (
      item_id text not null,
      revision integer not null,
      kind text not null,
      saved_at text not null,
      saved_by text,
      state text not null,
      doc text not null,
      fields text,
      blob_key text,
      thumb_blob_key text,
      content_type text,
      size bigint,
      sha256 text,
      image text,
      file text,
      thumbnail text,
      primary key (item_id, revision)
    )`.execute(db);
  await sql`insert into revisions_new select item_id, revision, kind, saved_at, saved_by, state, doc, fields,
      blob_key, thumb_blob_key, content_type, size, sha256, image, file, thumbnail from revisions`.execute(db);
  await sql`drop table revisions`.execute(db);
  await sql`alter table revisions_new rename to revisions`.execute(db);
  await sql`create index revisions_blob_key on revisions (blob_key)`.execute(db);
  await sql`create table live_revisions_new (item_id text primary key, revision integer not null)`.execute(db);
  await sql`insert into live_revisions_new select item_id, revision from live_revisions`.execute(db);
  await sql`drop table live_revisions`.execute(db);
  await sql`alter table live_revisions_new rename to live_revisions`.execute(db);
}

export const revisionKeys: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    const before = renderDocTriggers(FOLDED, TRIGGER_ROW_KEYS, pg, 'docs', PER_STATEMENT);
    const after = renderDocTriggers(TRIGGER_RULES, TRIGGER_ROW_KEYS, pg, 'docs', PER_STATEMENT);
    // First, as SQLite checks every trigger's statements against the tables when one is renamed.
    for (const statement of before.drop) await sql.raw(statement).execute(db);
    if (pg) {
      for (const table of ['revisions', 'live_revisions']) {
        const { rows } = await sql<{ conname: string }>`select conname from pg_constraint
          where conrelid = ${table}::regclass and contype = 'f'`.execute(db);
        for (const { conname } of rows) {
          await sql`alter table ${sql.table(table)} drop constraint ${sql.id(conname)}`.execute(db);
        }
      }
    } else {
      await rebuildSqlite(db);
    }
    for (const statement of after.create) await sql.raw(statement).execute(db);
  },
};
