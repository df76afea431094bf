import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase, vanishedSchema } from './database.js';

describe('vanishedSchema', () => {
  it('recognises "schema … does not exist" about another schema only', () => {
    const err = (message: string, code = '3F000') => Object.assign(new Error(message), { code });
    expect(vanishedSchema(err('schema "t_other" does not exist'), 't_ours')).toBe(true);
    expect(vanishedSchema(err('schema "t_ours" does not exist'), 't_ours')).toBe(false);
    expect(vanishedSchema(err('relation "x" does not exist', '42P01'), 't_ours')).toBe(false);
    expect(vanishedSchema(undefined, 't_ours')).toBe(false);
  });
});

const PG_URL = process.env.TEST_DATABASE_URL;
const schemaName = () => `t_${randomBytes(4).toString('hex')}_${Date.now().toString(36)}`;

describe.skipIf(!PG_URL)('migrations while other schemas come and go (PostgreSQL)', () => {
  it('migrate succeeds although schemas of others are dropped during its introspection', async () => {
    // Others create and drop schemas with tables in them, as parallel test files (or installations) do.
    const churn = new pg.Client({ connectionString: PG_URL });
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
    const ours: string[] = [];
    try {
      for (let i = 0; i < 12; i++) {
        const pgSchema = schemaName();
        ours.push(pgSchema);
        const database = openDatabase({ databaseUrl: PG_URL!, sqlitePath: '', pgSchema, poolSize: 2 });
        try {
          await database.migrate();
        } finally {
          await database.close();
        }
      }
    } finally {
      stop = true;
      await churning;
      for (const s of ours) await churn.query(`drop schema if exists "${s}" cascade`);
      await churn.end();
    }
  }, 120_000);
});
