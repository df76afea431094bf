import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * PostgreSQL: `folio_folder_doc_bump` (migration 0130), which every write of what a folder's JSON shows runs by
 * trigger, updates the doc row first and inserts one only when there is none. It was one SQL-language
 * `insert … on conflict do update`: planned again at every call (a SQL function called from PL/pgSQL keeps no plan),
 * and an insert attempt each time although the row is almost always there. On the benchmark data, a loop of updates
 * of a section's display title cost 211 µs per update with it, 81 µs with this one and 47 µs with no trigger
 * (bench/README.md). What it does is unchanged: the row's `seq` advances and its doc is cleared, or a row is made at
 * `seq` 1 for a node that exists. SQLite's triggers do their upsert inline and stay as they are.
 */
export const folderDocBump: Migration = {
  async up(db: Kysely<any>) {
    if (!isPostgres(db)) return;
    await sql`create or replace function folio_folder_doc_bump(target text) returns void language plpgsql as $$
      begin
        update folder_docs set seq = seq + 1, doc = null, doc_etag = null, doc_path = null, doc_access = null
          where node_id = target;
        if not found then
          insert into folder_docs (node_id, seq) select target, 1 where exists (select 1 from nodes where id = target)
            on conflict (node_id) do update set seq = folder_docs.seq + 1,
              doc = null, doc_etag = null, doc_path = null, doc_access = null;
        end if;
      end $$`.execute(db);
  },
};
