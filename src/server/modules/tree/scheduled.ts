import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { TRASH_NODE_ID } from '../../db/structure.js';

/**
 * Ids of the pages or assets whose `publish_at` or `unpublish_at` is at or before `now`, earliest first, at most
 * `limit` of each time (the partial indexes of migration 0290 hold only rows with a time). Both kinds' tables hold
 * the two columns alike; each kind's repository answers for its own (`dueScheduled`).
 *
 * Items in the trash (below TRASH_NODE_ID, at any depth) are left out: they have no path, so the scheduler could
 * not move them, and they would take a batch's places ahead of live items for as long as they wait there. Their
 * times stay: a restored item is due again. The walk goes up from the due rows only (a few, as the scheduler
 * clears each time it acts on), never over the whole trash.
 */
export async function dueScheduledIn(
  db: Kysely<DB>,
  table: 'pages' | 'assets',
  now: string,
  limit: number,
): Promise<string[]> {
  const ids = new Set<string>();
  for (const at of ['publish_at', 'unpublish_at'] as const) {
    const t = sql.table(table);
    const col = sql.ref(at);
    const { rows } = await sql<{ node_id: string }>`
      with recursive up(start_id, id) as (
        select node_id, node_id from ${t} where ${col} <= ${now}
        union all
        select up.start_id, n.parent_id from up join nodes n on n.id = up.id where n.parent_id is not null
      )
      select node_id from ${t}
      where ${col} <= ${now}
        and node_id not in (select start_id from up where id = ${TRASH_NODE_ID})
      order by ${col}
      limit ${limit}`.execute(db);
    for (const r of rows) ids.add(r.node_id);
  }
  return [...ids];
}
