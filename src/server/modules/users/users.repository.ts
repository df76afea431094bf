import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import { prepared } from '../../db/prepared.js';
import type { DB, UsersTable } from '../../db/schema.js';

export type UserRow = UsersTable;

// Prepared (db/prepared.ts): Basic auth reads the user row whenever the change generation moved.
const FIND_USER = prepared((db: Kysely<DB>, p: { username: string }) =>
  db.selectFrom('users').selectAll().where('username', '=', p.username),
);
const LOCK_USER = prepared((db: Kysely<DB>, p: { username: string }) =>
  forUpdate(db, db.selectFrom('users').selectAll().where('username', '=', p.username)),
);

/** SQL for users; takes a db or a transaction. */
export const usersRepository = {
  /** The user row; `forUpdate` locks it until the transaction ends (PostgreSQL; SQLite has one writer). */
  find(db: Kysely<DB>, username: string, opts: { forUpdate?: boolean } = {}) {
    return (opts.forUpdate ? LOCK_USER : FIND_USER).first(db, { username });
  },
  /** `find` read now through `readNow` (Database.readNow, SQLite): synchronous. */
  findNow(db: Kysely<DB>, readNow: NonNullable<Database['readNow']>, username: string): UserRow | undefined {
    return FIND_USER.firstNow(db, readNow, { username }) as UserRow | undefined;
  },
  list(db: Kysely<DB>) {
    return db.selectFrom('users').selectAll().orderBy('username').execute();
  },
  async count(db: Kysely<DB>) {
    const r = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
  insert(db: Kysely<DB>, row: UserRow) {
    return db.insertInto('users').values(row).execute();
  },
  update(db: Kysely<DB>, username: string, patch: Partial<Omit<UserRow, 'username'>>) {
    return db.updateTable('users').set(patch).where('username', '=', username).execute();
  },
  async delete(db: Kysely<DB>, username: string) {
    const r = await db.deleteFrom('users').where('username', '=', username).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },
  async countAdmins(db: Kysely<DB>) {
    const r = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'Admin')
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
};
