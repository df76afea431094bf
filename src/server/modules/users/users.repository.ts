import type { Kysely } from 'kysely';
import { forUpdate } from '../../db/dialect.js';
import { prepared, type Answer, type Later, type LookupMode } from '../../db/prepared.js';
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
  find<M extends LookupMode & { forUpdate?: boolean } = Later>(
    db: Kysely<DB>,
    username: string,
    mode?: M,
  ): Answer<M, UserRow | undefined> {
    return (mode?.forUpdate ? LOCK_USER : FIND_USER).first(db, { username }, mode);
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
