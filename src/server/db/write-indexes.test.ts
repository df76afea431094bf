import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';

/**
 * Migration 0170: the node indexes of the rare foreign keys hold only the rows that have one (PostgreSQL). Every
 * lookup by value must still find its index: the foreign keys' own actions when a node is deleted, the landing
 * page's owner, the links into a deleted subtree. Planned generically, as prepared statements are, with
 * sequential scans priced out so that an index the planner cannot prove usable shows as a scan.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const schema = `t_write_indexes_${process.pid}`;

describe.runIf(pgUrl)('partial indexes of nodes (PostgreSQL)', () => {
  let database: Database;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-indexes-'));
    database = openDatabase({ databaseUrl: pgUrl, sqlitePath: path.join(dir, 'x.db'), pgSchema: schema });
    await database.migrate();
  });
  afterAll(async () => {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db);
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The generic plan of `statement` (with one text parameter), on one connection. */
  async function planOf(statement: string): Promise<string> {
    return database.db.connection().execute(async (conn) => {
      await sql`set plan_cache_mode = force_generic_plan`.execute(conn);
      await sql`set enable_seqscan = off`.execute(conn);
      try {
        await sql.raw(`prepare q(text) as ${statement}`).execute(conn);
        const { rows } = await sql.raw<{ 'QUERY PLAN': string }>(`explain execute q('x')`).execute(conn);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await sql`deallocate all`.execute(conn);
        await sql`reset all`.execute(conn);
      }
    });
  }

  it.each([
    ['the landing page of a section', 'select id from nodes where landing_page_id = $1', 'nodes_landing_page'],
    ['on delete set null', 'update nodes set landing_page_id = null where landing_page_id = $1', 'nodes_landing_page'],
    ['on delete cascade', 'delete from nodes where link_target_id = $1', 'nodes_link_target'],
    [
      'links into a subtree',
      'select id from nodes where link_target_id in (select id from nodes where parent_id = $1)',
      'nodes_link_target',
    ],
  ])('%s finds its index', async (_, statement, index) => {
    const plan = await planOf(statement);
    expect(plan).toContain(index);
    expect(plan).not.toMatch(/Seq Scan on nodes/);
  });

  it('leaves the rows without one out of them', async () => {
    const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes
      where schemaname = ${schema} and indexname in ('nodes_landing_page', 'nodes_link_target') order by indexname`.execute(
      database.db,
    );
    expect(rows.map((r) => r.indexdef)).toEqual([
      expect.stringMatching(/\(landing_page_id\) WHERE \(landing_page_id IS NOT NULL\)$/),
      expect.stringMatching(/\(link_target_id\) WHERE \(link_target_id IS NOT NULL\)$/),
    ]);
  });
});
