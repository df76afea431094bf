import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';
import { TRASH_NODE_ID } from '../structure.js';

/*
 * The trash (modules/trash): a delete moves the item's node below a hidden root of its own (TRASH_NODE_ID, no
 * parent, so no path reaches it), renamed to its `trash` entry's id, and the entry remembers where it was. Its
 * rows (page, widgets, asset, revisions, blobs) stay as they were, so a restore is a move back; a purge deletes
 * the node and the foreign keys cascade.
 */
export const trash: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    const t = sql.raw(pg ? 'text collate "C"' : 'text');
    const id = sql.raw(pg ? 'bigserial primary key' : 'integer primary key autoincrement');
    const now = new Date().toISOString();
    await sql`insert into nodes (id, parent_id, kind, name, sort_order, created_at, updated_at)
      values (${TRASH_NODE_ID}, null, 'root', 'Trash', 0, ${now}, ${now})`.execute(db);
    await sql`create table trash (
        id ${id},
        node_id ${t} not null unique references nodes (id) on delete cascade,
        kind ${t} not null,
        parent_id ${t},
        name ${t} not null,
        path ${t} not null,
        deleted_by ${t} not null,
        deleted_at ${t} not null
      )`.execute(db);
    await sql`create index trash_deleted_at on trash (deleted_at, id)`.execute(db);
  },
};
