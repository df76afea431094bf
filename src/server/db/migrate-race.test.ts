import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';
import { createTestDatabase } from '../test/node-cluster.js';
import { openDatabase } from './database.js';

const PG_URL = process.env.TEST_DATABASE_URL;
const schemaName = () => `t_${randomBytes(4).toString('hex')}_${Date.now().toString(36)}`;

describe.skipIf(!PG_URL)('migrations while other schemas come and go (PostgreSQL)', () => {
  it('migrate succeeds although schemas of others are dropped during its introspection', async () => {
    // A database of its own, so the churn below cannot disturb other test files.
    const database = await createTestDatabase(PG_URL!);
    // Others create and drop schemas with tables in them, as parallel test files (or installations) do.
    const churn = new pg.Client({ connectionString: database.url });
    churn.on('error', () => {});
    await churn.connect();
    let stop = false;
    const churning = (async () => {
      while (!stop) {
        const s = schemaName();
        await churn.query(`create schema "${s}"; create table "${s}".a (x int); create table "${s}".b (y int)`);
        await churn.query(`drop schema "${s}" cascade`);
      }
    })();
    try {
      for (let i = 0; i < 12; i++) {
        const db = openDatabase({ databaseUrl: database.url, sqlitePath: '', pgSchema: schemaName(), poolSize: 2 });
        try {
          await db.migrate();
        } finally {
          await db.close();
        }
      }
    } finally {
      stop = true;
      await churning;
      await churn.end();
      await database.drop();
    }
  }, 120_000);
});
