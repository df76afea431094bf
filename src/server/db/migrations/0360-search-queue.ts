import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Search indexing off the write path. The triggers of migration 0270 recomputed an item's whole search row (every
 * widget's text, then on PostgreSQL the tsvectors and their GIN entries) inside every write, once per written row:
 * a PUT of a page of N widgets recomputed it N times, and a PUT that renames a page spent most of its time there.
 * Now the same triggers, on the same changes, only queue the item's id in `search_queue`; the search module
 * (search.repository.ts `reindex`) writes the rows of the queued ids, from a background indexer on every node and
 * before every search (read-your-writes). Deleting a node still deletes its search row (the foreign key).
 *
 * The queue holds node ids without a foreign key: a widget deleted with its page queues an id that is gone, which
 * the reindex drops.
 */
export const searchQueue: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    await sql`create table search_queue (node_id text${sql.raw(pg ? ' collate "C"' : '')} primary key)`.execute(db);

    const changed = (cols: string[]) =>
      cols.map((col) => (pg ? `new.${col} is distinct from old.${col}` : `new.${col} is not old.${col}`)).join(' or ');
    // [table, event, when, the id queued] — the triggers and conditions of migration 0270.
    const rules: [string, 'insert' | 'update' | 'delete', string, string][] = [
      ['nodes', 'insert', `new.kind <> 'root'`, 'new.id'],
      ['nodes', 'update', changed(['name', 'display_title', 'kind']), 'new.id'],
      ['pages', 'insert', 'true', 'new.node_id'],
      ['pages', 'update', changed(['display_name', 'summary', 'seo']), 'new.node_id'],
      ['assets', 'insert', 'true', 'new.node_id'],
      ['assets', 'update', changed(['fields', 'image', 'file']), 'new.node_id'],
      ['widgets', 'insert', 'true', 'new.page_id'],
      ['widgets', 'update', changed(['fields', 'page_id']), 'new.page_id'],
      ['widgets', 'delete', 'true', 'old.page_id'],
    ];
    for (const [table, event, when, idExpr] of rules) {
      const enqueue = sql.raw(`insert into search_queue (node_id) values (${idExpr}) on conflict do nothing`);
      if (pg) {
        // The triggers stay (with their conditions); their functions now only queue.
        await sql`create or replace function ${sql.raw(`folio_search_${table}_${event}`)}() returns trigger
            language plpgsql as $$
            begin
              ${enqueue};
              return null;
            end $$`.execute(db);
      } else {
        const name = sql.raw(`${table}_search_${event}`);
        await sql`drop trigger ${name}`.execute(db);
        await sql`create trigger ${name} after ${sql.raw(event)} on ${sql.raw(table)}
            ${sql.raw(when === 'true' ? '' : `when ${when}`)}
            begin ${enqueue}; end`.execute(db);
      }
    }
  },
};
