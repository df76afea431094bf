import { describe, expect, it } from 'vitest';
import { sharedRuns } from './shared-runs.js';

/** Lets pending promise callbacks and immediates run. */
const settle = () => new Promise<void>((r) => setImmediate(r));

/** An operation whose runs the test ends by hand; each run answers its own number. */
function manual() {
  const ends: (() => void)[] = [];
  let started = 0;
  const operation = () => {
    const n = ++started;
    return new Promise<number>((resolve) => ends.push(() => resolve(n)));
  };
  return { operation, ends, started: () => started };
}

describe('sharedRuns', () => {
  it('starts at the first call when idle; callers during a run share the next run, never the current one', async () => {
    const m = manual();
    const run = sharedRuns(m.operation);
    const first = run();
    expect(m.started()).toBe(1);
    const later = [run(), run(), run()];
    expect(m.started()).toBe(1);
    m.ends.shift()!();
    await settle();
    expect(m.started()).toBe(2);
    m.ends.shift()!();
    expect(await first).toBe(1);
    expect(await Promise.all(later)).toEqual([2, 2, 2]);
    expect({ calls: run.calls, runs: run.runs }).toEqual({ calls: 4, runs: 2 });
  });

  it('deferStart: the callers of one event-loop turn share one run started on the next turn', async () => {
    const m = manual();
    const run = sharedRuns(m.operation, { deferStart: true });
    const calls = [run(), run()];
    expect(m.started()).toBe(0);
    await settle();
    expect(m.started()).toBe(1);
    m.ends.shift()!();
    expect(await Promise.all(calls)).toEqual([1, 1]);
  });

  it('an operation that throws rejects its callers only; the next call runs it again', async () => {
    let fail = true;
    const run = sharedRuns(async () => 'ok');
    const throwing = sharedRuns<string>(() => {
      if (fail) throw new Error('cannot start');
      return run();
    });
    await expect(throwing()).rejects.toThrow('cannot start');
    fail = false;
    expect(await throwing()).toBe('ok');
    expect(throwing.runs).toBe(2);
  });

  it('settled() waits for the run in flight and the one queued', async () => {
    const m = manual();
    const run = sharedRuns(m.operation);
    void run();
    void run();
    let done = false;
    const settled = run.settled().then(() => {
      done = true;
    });
    m.ends.shift()!();
    await settle();
    expect(done).toBe(false);
    m.ends.shift()!();
    await settled;
    expect(done).toBe(true);
  });
});
