import type { Kysely, Migration } from 'kysely';
import { useByteOrderForText } from '../dialect.js';

/**
 * PostgreSQL: every text column collates bytewise ("C"), so names, ids and timestamps sort and compare as on
 * SQLite whatever collation the database was created with. A no-op on SQLite. Later migrations that add text
 * columns on PostgreSQL must give them `collate "C"` too (db/collation.test.ts checks).
 */
export const postgresByteOrderText: Migration = {
  async up(db: Kysely<any>) {
    await useByteOrderForText(db);
  },
};
