/**
 * One run of an operation shared by every caller that arrives while another run is under way — the pattern of
 * group commit. A caller always gets a run that *started after its call*: one already under way may predate
 * what the caller needs to see (a commit it made, a write acknowledged to someone just before), so it is never
 * reused. Everyone arriving during a run waits for the same next run, started as soon as that one ends. At most
 * one run is in flight and one queued, whatever the rate of calls.
 *
 * Used by the SQLite durability barrier (db/durability.ts: one fdatasync for all writers waiting) and the
 * PostgreSQL change-generation read (lib/change-generation.ts: one `select last_value` for all readers waiting).
 */
export interface SharedRuns<T> {
  /** The result of a run that starts after this call (and is shared with the callers around it). */
  (): Promise<T>;
  /** Calls so far. */
  readonly calls: number;
  /** Runs started so far. */
  readonly runs: number;
  /** Resolves once no run is in flight or queued. */
  settled(): Promise<void>;
}

export interface SharedRunsOptions {
  /**
   * Start a run on the next turn of the event loop instead of at the first call when none is in flight, so that
   * the callers of this turn share it (writers finishing together share one sync).
   */
  deferStart?: boolean;
}

export function sharedRuns<T>(operation: () => Promise<T>, opts: SharedRunsOptions = {}): SharedRuns<T> {
  /** The callers of the run that has not started yet: they all get that one. */
  let waiting: { promise: Promise<T>; resolve: (value: T) => void; reject: (err: unknown) => void } | null = null;
  /** The run in flight (settles when it ends, whether it failed or not). */
  let running: Promise<void> | null = null;
  let calls = 0;
  let runs = 0;

  function launch() {
    const batch = waiting!;
    waiting = null;
    runs++;
    let result: Promise<T>;
    try {
      result = operation();
    } catch (err) {
      result = Promise.reject(err);
    }
    running = result.then(batch.resolve, batch.reject).finally(() => {
      running = null;
      // Whoever arrived while this run was under way gets the next one.
      if (waiting) launch();
    });
  }

  const call = (() => {
    calls++;
    if (waiting) return waiting.promise;
    let resolve!: (value: T) => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    waiting = { promise, resolve, reject };
    if (!running) {
      if (opts.deferStart) setImmediate(launch);
      else launch();
    }
    return promise;
  }) as SharedRuns<T>;

  Object.defineProperties(call, {
    calls: { get: () => calls },
    runs: { get: () => runs },
  });
  call.settled = async () => {
    while (running || waiting) await (running ?? new Promise((r) => setImmediate(r)));
  };
  return call;
}
