import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import SQLite from '../db/sqlite-driver.js';
import { ADMIN, createTestApp, type TestApp } from '../test/harness.js';

const onPostgres = !!process.env.TEST_DATABASE_URL;

/** A WAL sync that, once `hold` is set, holds every call until the test releases it (then really fdatasyncs). */
function heldSync() {
  const state = { hold: false, held: [] as (() => void)[] };
  const real = (fd: number) =>
    new Promise<void>((resolve, reject) => fs.fdatasync(fd, (err) => (err ? reject(err) : resolve())));
  const sync = (fd: number) =>
    state.hold
      ? new Promise<void>((resolve, reject) => state.held.push(() => real(fd).then(resolve, reject)))
      : real(fd);
  return { state, sync };
}

async function until(check: () => boolean) {
  for (let i = 0; i < 5000 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(check()).toBe(true);
}

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('requests in flight at shutdown', () => {
  it('injected requests end when answered: closing does not wait for them', async () => {
    t = await createTestApp();
    const res = await t.request({ method: 'GET', url: '/cms/rest/templates' });
    expect(res.statusCode).toBe(200);
    const started = Date.now();
    await t.app.close();
    // Far below the drain limit (10 s): nothing was counted as still running.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a write whose client hung up runs to its end (commit, bump, sync) before the database closes', async () => {
    const sync = heldSync();
    const lines: string[] = [];
    t = await createTestApp(
      { LOG_LEVEL: 'warn' },
      { logStream: { write: (line: string) => lines.push(line) }, ...(onPostgres ? {} : { walSync: sync.sync }) },
    );
    const regions = (name: string) => ({ regions: [{ name, editable: true }] });
    expect(
      (await t.request({ method: 'PUT', url: '/cms/rest/templates/held', payload: regions('a') })).statusCode,
    ).toBe(201);
    // What holds the write half-way: on SQLite its sync; on PostgreSQL a lock on its row, taken by another client.
    const { db } = t.app.folio.ctx;
    let locker: pg.Client | undefined;
    if (onPostgres) {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
      locker = new pg.Client({
        connectionString: process.env.TEST_DATABASE_URL,
        options: `-c search_path=${rows[0]!.schema}`,
      });
      await locker.connect();
      await locker.query('begin');
      await locker.query(`select 1 from templates where name = 'held' for update`);
    }
    sync.state.hold = true;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const body = JSON.stringify(regions('b'));
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'PUT',
      path: '/cms/rest/templates/held',
      headers: { authorization: ADMIN, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('error', () => {});
    req.end(body);
    if (locker) {
      const waiting = async () =>
        (
          await locker!.query(
            // This database's only: other runs on the same server (other databases) have folio clients too.
            `select count(*)::int as n from pg_stat_activity
              where application_name = 'folio' and wait_event_type = 'Lock' and datname = current_database()`,
          )
        ).rows[0].n as number;
      let n = 0;
      for (let i = 0; i < 2500 && n === 0; i++) {
        n = await waiting();
        if (n === 0) await new Promise((r) => setTimeout(r, 2));
      }
      expect(n).toBe(1);
    } else {
      await until(() => sync.state.held.length === 1);
    }
    // The client goes away; the server is told to stop.
    req.destroy();
    let closed = false;
    const closing = t.app.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(closed).toBe(false);
    if (locker) await locker.query('rollback');
    for (const release of sync.state.held.splice(0)) release();
    await closing;

    // Nothing failed on the way (a bump or a sync on a closed database logs an error), and the write is there.
    expect(lines.filter((l) => (JSON.parse(l) as { level: number }).level >= 50)).toEqual([]);
    let stored: string | undefined;
    if (locker) {
      stored = (await locker.query(`select regions from templates where name = 'held'`)).rows[0].regions as string;
      await locker.end();
    } else {
      const file = new SQLite(path.join(t.config.dataDir, 'folio.db'), { readonly: true });
      stored = (file.prepare(`select regions from templates where name = 'held'`).get() as { regions: string }).regions;
      file.close();
    }
    expect(stored).toContain('"b"');
  });
});
