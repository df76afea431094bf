import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The change log (`lib/change-log.ts`): one row per change of a page, folder item, asset or template, written in
 * the statement that makes the change, read by every node's live events (`modules/events/`).
 *
 * Rows are written by triggers on `pages`, `nodes`, `assets` and `templates`, not by the services: a trigger runs
 * inside the statement that writes, so the guarded single-statement `UPDATE` (and its batched form on PostgreSQL,
 * db/batched-statements.ts) stays one round trip, every transactional way (moves, renames, copies, link rewrites,
 * bulk workflow, uploads) is covered without an edit at its site, and no later write way can forget it. A change
 * is an insert, or an update that moves the row's own `updated_at` (a stored doc or a count written by another
 * trigger is not a change). Deletes are recorded by the service that deletes (`recordChanges`, one row for the
 * item deleted, not one per row a cascade removes), which knows who deleted and the item's path.
 *
 * - `path` is null for rows the triggers write: the reader resolves it (the item may have moved since).
 * - `etag` is the item's new strong ETag when the write stored it with its doc (`doc_etag` moved), else null.
 * - `assets.updated_by` and `templates.updated_by` are new: who last changed the row (null until then).
 * - `changes_pruned` (one row) holds the highest id pruned, so a resume older than it is told to refetch.
 */
export const changeLog: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    // Every text column compares bytewise on PostgreSQL (migration 0040).
    const c = sql.raw(pg ? ' collate "C"' : '');
    const id = sql.raw(pg ? 'bigserial primary key' : 'integer primary key autoincrement');
    await sql`create table changes (
        id ${id},
        kind text${c} not null,
        item_id text${c} not null,
        path text${c},
        etag text${c},
        deleted smallint not null default 0,
        actor text${c},
        at text${c} not null
      )`.execute(db);
    await sql`create table changes_pruned (id integer primary key, up_to bigint not null)`.execute(db);
    await sql`insert into changes_pruned (id, up_to) values (1, 0)`.execute(db);
    await sql`alter table assets add column updated_by text${c}`.execute(db);
    await sql`alter table templates add column updated_by text${c}`.execute(db);

    // [table, trigger suffix, kind expression, id column, etag expression or null, actor expression, insert guard]
    const assetActor = '(select updated_by from nodes where id = new.node_id)';
    if (pg) {
      const fn = async (name: string, kind: string, idCol: string, etag: string, actor: string) => {
        await sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
          begin
            insert into changes (kind, item_id, etag, actor, at)
              values (${sql.raw(kind)}, new.${sql.raw(idCol)}, ${sql.raw(etag)}, ${sql.raw(actor)}, new.updated_at);
            return null;
          end $$`.execute(db);
      };
      const newEtag = (col: string) =>
        `case when tg_op = 'INSERT' or new.${col} is distinct from old.${col} then new.${col} end`;
      await fn('folio_change_page', `'page'`, 'node_id', newEtag('doc_etag'), 'new.updated_by');
      await fn(
        'folio_change_asset',
        `'asset'`,
        'node_id',
        newEtag('doc_etag'),
        `coalesce(new.updated_by, ${assetActor})`,
      );
      await fn('folio_change_node', 'new.kind', 'id', 'null', 'new.updated_by');
      await fn('folio_change_template', `'template'`, 'name', 'null', 'new.updated_by');
      const triggers: [string, string, string, string][] = [
        ['pages', 'folio_change_page', 'true', 'new.updated_at is distinct from old.updated_at'],
        ['assets', 'folio_change_asset', 'true', 'new.updated_at is distinct from old.updated_at'],
        ['templates', 'folio_change_template', 'true', 'new.updated_at is distinct from old.updated_at'],
        [
          'nodes',
          'folio_change_node',
          `new.kind not in ('page', 'asset')`,
          `new.kind <> 'asset' and (new.updated_at is distinct from old.updated_at or new.name is distinct from ` +
            'old.name or new.parent_id is distinct from old.parent_id)',
        ],
      ];
      for (const [table, f, onInsert, onUpdate] of triggers) {
        await sql`create trigger ${sql.raw(`${table}_change_insert`)} after insert on ${sql.raw(table)}
          for each row when (${sql.raw(onInsert)}) execute function ${sql.raw(f)}()`.execute(db);
        await sql`create trigger ${sql.raw(`${table}_change_update`)} after update on ${sql.raw(table)}
          for each row when (${sql.raw(onUpdate)}) execute function ${sql.raw(f)}()`.execute(db);
      }
      return;
    }
    const newEtag = (col: string, op: string) =>
      op === 'insert' ? `new.${col}` : `case when new.${col} is not old.${col} then new.${col} end`;
    const sqliteTriggers: [string, string, string, (op: string) => string, string, string, string][] = [
      [
        'pages',
        `'page'`,
        'node_id',
        (op) => newEtag('doc_etag', op),
        'new.updated_by',
        '1',
        'new.updated_at is not old.updated_at',
      ],
      [
        'assets',
        `'asset'`,
        'node_id',
        (op) => newEtag('doc_etag', op),
        `coalesce(new.updated_by, ${assetActor})`,
        '1',
        'new.updated_at is not old.updated_at',
      ],
      ['templates', `'template'`, 'name', () => 'null', 'new.updated_by', '1', 'new.updated_at is not old.updated_at'],
      [
        'nodes',
        'new.kind',
        'id',
        () => 'null',
        'new.updated_by',
        `new.kind not in ('page', 'asset')`,
        `new.kind <> 'asset' and (new.updated_at is not old.updated_at or new.name is not old.name or ` +
          'new.parent_id is not old.parent_id)',
      ],
    ];
    for (const [table, kind, idCol, etag, actor, onInsert, onUpdate] of sqliteTriggers) {
      for (const [op, when] of [
        ['insert', onInsert],
        ['update', onUpdate],
      ] as const) {
        await sql`create trigger ${sql.raw(`${table}_change_${op}`)} after ${sql.raw(op)} on ${sql.raw(table)}
          when ${sql.raw(when)}
          begin
            insert into changes (kind, item_id, etag, actor, at)
              values (${sql.raw(kind)}, new.${sql.raw(idCol)}, ${sql.raw(etag(op))}, ${sql.raw(actor)}, new.updated_at);
          end`.execute(db);
      }
    }
  },
};
