import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The item rows mirror their check-out lease (modules/leases): the leases taken before this migration are
 * written into their items' `checked_out` / `checked_out_user` (the lease sweep clears those that ran out). The
 * stored docs of the rows changed are dropped, so they are made again from the rows.
 */
export const leaseMirror: Migration = {
  async up(db: Kysely<any>) {
    for (const [kind, table] of [
      ['page', 'pages'],
      ['asset', 'assets'],
    ] as const) {
      const holder = sql`(select l.username from item_leases l
        where l.kind = ${kind} and l.item_id = ${sql.table(table)}.node_id order by l.expires_at desc limit 1)`;
      await sql`update ${sql.table(table)} set checked_out = 1, checked_out_user = ${holder},
          doc = null, doc_etag = null, doc_path = null, doc_seq = doc_seq + 1
        where node_id in (select item_id from item_leases where kind = ${kind})`.execute(db);
    }
  },
};
