import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/** Rows of `change_generation_slots`: a statement bumps its connection's, so concurrent writers rarely wait on each other. */
export const GENERATION_SLOTS = 64;

/**
 * PostgreSQL: the transactional part of the change generation (lib/change-generation.ts). The sequence of 0060 is
 * bumped after a write's commit; it cannot be bumped inside the write, because `nextval` is seen by every session
 * at once, before the commit. A write that is one statement can instead bump a row of this table in that statement
 * (a data-modifying `with`), so the bump commits with the data and costs no round trip of its own. Readers read
 * the sequence and the sum of these rows in one statement. A no-op on SQLite, where every commit changes the
 * generation.
 */
export const generationSlots: Migration = {
  async up(db: Kysely<any>) {
    if (!isPostgres(db)) return;
    await sql`create table change_generation_slots (slot integer primary key, value bigint not null default 0)`.execute(
      db,
    );
    await sql`insert into change_generation_slots (slot) select s from generate_series(0, ${sql.lit(
      GENERATION_SLOTS - 1,
    )}) s`.execute(db);
  },
};
