import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, type TestApp } from '../test/harness.js';

const onPostgres = !!process.env.TEST_DATABASE_URL;

/** The WAL sync under the test's control: passes (really fdatasyncs), holds until released, or fails. */
function controlledSync() {
  const state = {
    mode: 'pass' as 'pass' | 'hold' | 'fail',
    calls: 0,
    held: [] as (() => void)[],
  };
  const sync = (fd: number) => {
    state.calls++;
    if (state.mode === 'fail')
      return Promise.reject(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    const real = () =>
      new Promise<void>((resolve, reject) => fs.fdatasync(fd, (err) => (err ? reject(err) : resolve())));
    if (state.mode === 'pass') return real();
    return new Promise<void>((resolve, reject) => state.held.push(() => real().then(resolve, reject)));
  };
  return { state, sync };
}

const template = (name: string) => ({
  method: 'PUT' as const,
  url: `/cms/rest/templates/${name}`,
  payload: { regions: [{ name: 'main', editable: true }] },
});

async function until(check: () => boolean) {
  for (let i = 0; i < 5000 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(check()).toBe(true);
}

let t: TestApp;
let ctl: ReturnType<typeof controlledSync>;
beforeEach(async () => {
  ctl = controlledSync();
  t = await createTestApp({}, { walSync: ctl.sync });
});
afterEach(async () => {
  for (const release of ctl.state.held.splice(0)) release();
  ctl.state.mode = 'pass';
  await t.close();
});

describe.skipIf(onPostgres)('durable writes (SQLite group commit)', () => {
  it('answers a write only after the WAL holding it is synced', async () => {
    ctl.state.mode = 'hold';
    let answered = false;
    const put = t.request(template('held')).then((res) => {
      answered = true;
      return res;
    });
    await until(() => ctl.state.held.length === 1);
    // Committed (another request sees it) but not acknowledged: the sync has not finished.
    const visible = await t.request({ method: 'GET', url: '/cms/rest/templates/held' });
    expect(visible.statusCode).toBe(200);
    expect(answered).toBe(false);
    ctl.state.held.shift()!();
    const res = await put;
    expect(res.statusCode).toBe(201);
  });

  it('shares one sync among the writes that finish together', async () => {
    // Verified once (scrypt) before the burst, so no write waits for a free thread of the pool to sign in.
    expect((await t.request({ method: 'GET', url: '/cms/rest/templates' })).statusCode).toBe(200);
    const database = t.app.folio.ctx.database;
    const base = database.durableCalls;
    ctl.state.mode = 'hold';
    const puts = Array.from({ length: 8 }, (_, i) => t.request(template(`many-${i}`)));
    await until(() => ctl.state.held.length === 1);
    // All eight reach the barrier while the first sync is held: those that came with the first share it, the
    // others wait for the next one, together.
    await until(() => database.durableCalls === base + 8);
    expect(ctl.state.calls).toBe(1);
    ctl.state.mode = 'pass';
    for (const release of ctl.state.held.splice(0)) release();
    const statuses = (await Promise.all(puts)).map((r) => r.statusCode);
    expect(statuses).toEqual(Array(8).fill(201));
    expect(ctl.state.calls).toBeLessThanOrEqual(2);
  });

  it('does not make reads wait', async () => {
    ctl.state.mode = 'hold';
    const put = t.request(template('pending'));
    await until(() => ctl.state.held.length === 1);
    const list = await t.request({ method: 'GET', url: '/cms/rest/templates' });
    expect(list.statusCode).toBe(200);
    expect(ctl.state.calls).toBe(1);
    ctl.state.held.shift()!();
    expect((await put).statusCode).toBe(201);
  });

  it('answers 503 STORAGE_UNAVAILABLE, not 2xx, when the sync fails', async () => {
    ctl.state.mode = 'fail';
    const res = await t.request(template('unsynced'));
    expect(res.statusCode).toBe(503);
    expect(problemOf(res).code).toBe('STORAGE_UNAVAILABLE');
    // The next write, with the disk back, is acknowledged as usual.
    ctl.state.mode = 'pass';
    expect((await t.request(template('synced'))).statusCode).toBe(201);
  });
});

describe.runIf(onPostgres)('durable writes (PostgreSQL)', () => {
  it('acknowledges at commit: PostgreSQL synced its WAL, nothing else is synced', async () => {
    ctl.state.mode = 'fail';
    expect((await t.request(template('pg'))).statusCode).toBe(201);
    expect(ctl.state.calls).toBe(0);
  });
});
