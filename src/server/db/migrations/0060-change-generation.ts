import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * PostgreSQL: the change generation (lib/change-generation.ts), a sequence every node bumps with `nextval` after
 * a write and reads with `select last_value` before serving from its caches. A sequence is non-transactional
 * and takes no row lock, so writers never wait on each other for it. A no-op on SQLite, where the generation
 * lives in the process and in the database file's `data_version`.
 */
export const changeGeneration: Migration = {
  async up(db: Kysely<any>) {
    if (!isPostgres(db)) return;
    await sql`create sequence change_generation`.execute(db);
  },
};
