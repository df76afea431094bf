import { CompiledQuery, sql, type Kysely } from 'kysely';

/** At most this many runs go into one statement. */
const MAX_BATCH = 64;
/**
 * At most this many statements of one update are under way at once (lookups: any number): the runs asked for
 * while one commits wait for it and then go out together, as group commit gathers commits. Measured on
 * PostgreSQL (bench/README.md): fewer, larger batches of PUTs, and less CPU per PUT; for lookups the same gate only
 * added waiting.
 */
const MAX_UPDATES_IN_FLIGHT = 1;
/** The batch's own column: which run a row answers (1-based, `with ordinality`). */
const RUN = 'folio_batch_run';
/** The alias of the runs' parameters in the batched statement. */
const RUNS = 'folio_batch';

/** A statement that can run for many parameter sets at once (see createBatchedStatements). */
export interface BatchShape {
  /** The statement run alone, with its parameters `$1`, `$2`, … */
  sql: string;
  /**
   * The statement for many runs, given the FROM item of the runs' parameters (`unnest(…) with ordinality as
   * folio_batch(p1, …, folio_batch_run)`) and `own`, which turns a part of `sql` into the same text with each `$k`
   * replaced by the run's own `folio_batch.pk`. It answers `folio_batch.folio_batch_run` in every row it answers
   * for a run.
   */
  batched(runs: string, own: (text: string) => string): string;
}

/** A one-row lookup: each run's first row, from one `select` joining the runs to the lookup laterally. */
export function lookupShape(sqlText: string): BatchShape {
  return {
    sql: sqlText,
    batched: (runs, own) => `select ${RUNS}.${RUN}, q.* from ${runs} cross join lateral (${own(sqlText)}) as q`,
  };
}

/**
 * `[with …] update <table> set … where <key> = $k …`: each run's row updated by one `update … from <runs>`,
 * which returns the runs it updated. `where` is where the statement's own `where` starts (its `set` has none).
 */
export function updateShape(sqlText: string, where: number, prefixLength: number): BatchShape {
  const prefix = sqlText.slice(0, prefixLength);
  const head = sqlText.slice(prefixLength, where);
  const tail = sqlText.slice(where);
  return {
    sql: sqlText,
    batched: (runs, own) => `${prefix}${own(head)} from ${runs}${own(tail)} returning ${RUNS}.${RUN}`,
  };
}

interface Waiting {
  values: readonly unknown[];
  /** Runs of an update with the same key go in separate statements. */
  key: unknown;
  resolve(result: unknown): void;
  reject(err: unknown): void;
}

interface Statement {
  shape: BatchShape;
  kind: 'first' | 'update';
  /** Runs waiting for the next flush. */
  waiting: Waiting[];
  /** The batched SQL (null: none, the runs go alone), once PostgreSQL told the parameters' types. */
  batched: Promise<string | null>;
  /** An update's statements under way (at most MAX_UPDATES_IN_FLIGHT); lookups are not counted. */
  inFlight: number;
}

export interface BatchedStatements {
  /** The first row of a lookup (lookupShape) with `values`, read together with its other runs asked for now. */
  first<R>(shape: BatchShape, values: readonly unknown[]): Promise<R | undefined>;
  /**
   * The rows an update (updateShape) of the row `key` changed (0n or 1n), written with its other runs asked for
   * now: in one statement, so they commit together.
   */
  update(shape: BatchShape, values: readonly unknown[], key: unknown): Promise<bigint>;
}

/**
 * Statements on PostgreSQL that arrive together, sent as one.
 *
 * Every statement sent to PostgreSQL wakes a backend, and on a small machine that wakeup and the round trip cost
 * more than the indexed read or the one-row update itself (bench/README.md). The runs of one statement asked for
 * while the event loop handles the sockets that are ready (until its next `setImmediate`) go out as one:
 *
 *     select folio_batch.folio_batch_run, q.*
 *       from unnest((select $1::text[]), (select $2::bigint[])) with ordinality as folio_batch(p1, p2, folio_batch_run)
 *       cross join lateral (<the lookup, each $k replaced by folio_batch.pk>) as q
 *
 *     update pages set doc = folio_batch.p1 … from unnest(…) with ordinality as folio_batch(…)
 *       where node_id = folio_batch.p3 and doc_seq = folio_batch.p4 … returning folio_batch.folio_batch_run
 *
 * - A lookup's run gets the row its own statement would have found (or none), in one snapshot taken after all of
 *   them were asked for, so nothing acknowledged before a read is missed.
 * - An update's run changes its row exactly as its own statement would (its own guard and proof in the `where`);
 *   the runs commit together, and each is answered after that commit. Runs of the same row go in separate
 *   statements, one after the other; the runs of a statement are in key order, so two batches lock rows in the
 *   same order. While one statement of an update is under way, the runs asked for wait and go out together
 *   when it ends (MAX_UPDATES_IN_FLIGHT).
 * - A run alone is sent as it is. If a batch fails (for an update: nothing of it was written), each of its runs is
 *   sent on its own, so an error is that run's own.
 * - The parameters' types are PostgreSQL's own for the statement (asked once per statement, by preparing it under a
 *   probe name; the first batch waits for that), so each `folio_batch.pk` compares exactly as `$k` did.
 *
 * Only outside transactions (a transaction's statements run on its own connection). `named` is told each batched
 * SQL (prepared.ts names it, so each connection plans it once).
 */
export function createBatchedStatements(db: Kysely<any>, named: (sqlText: string) => void): BatchedStatements {
  const statements = new Map<string, Statement>();
  let due: Statement[] = [];
  let probes = 0;

  const execute = (sqlText: string, values: readonly unknown[]) =>
    db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(sqlText, values as unknown[]));

  function flush() {
    const now = due;
    due = [];
    for (const statement of now) flushOne(statement);
  }

  /** Whether `statement` is an update with MAX_UPDATES_IN_FLIGHT statements under way (its runs then wait). */
  const busy = (statement: Statement) => statement.kind === 'update' && statement.inFlight >= MAX_UPDATES_IN_FLIGHT;

  /** Sends what `statement` has waiting, unless it is busy (then its statement under way does, when it ends). */
  function flushOne(statement: Statement) {
    if (busy(statement) || statement.waiting.length === 0) return;
    const waiting = statement.waiting;
    statement.waiting = [];
    if (statement.kind === 'first') {
      for (let i = 0; i < waiting.length; i += MAX_BATCH) void send(statement, waiting.slice(i, i + MAX_BATCH));
      return;
    }
    statement.inFlight++;
    // Each run is answered (or rejected) by send itself; this only counts the statement as ended.
    void sendUpdates(statement, waiting)
      .catch(() => undefined)
      .then(() => {
        statement.inFlight--;
        flushOne(statement);
      });
  }

  function alone(statement: Statement, w: Waiting): Promise<void> {
    return execute(statement.shape.sql, w.values).then(
      (r) => w.resolve(statement.kind === 'first' ? r.rows[0] : (r.numAffectedRows ?? 0n)),
      w.reject,
    );
  }

  /** The runs of an update in rounds without a repeated key, each round in key order, one round after the other. */
  async function sendUpdates(statement: Statement, waiting: Waiting[]) {
    let left = waiting;
    while (left.length) {
      const seen = new Set<unknown>();
      const round: Waiting[] = [];
      const later: Waiting[] = [];
      for (const w of left) {
        if (seen.has(w.key) || round.length === MAX_BATCH) {
          later.push(w);
        } else {
          seen.add(w.key);
          round.push(w);
        }
      }
      round.sort((a, b) => (String(a.key) < String(b.key) ? -1 : 1));
      await send(statement, round);
      left = later;
    }
  }

  async function send(statement: Statement, waiting: Waiting[]): Promise<void> {
    const batched = waiting.length > 1 ? await statement.batched : null;
    if (batched === null) {
      await Promise.all(waiting.map((w) => alone(statement, w)));
      return;
    }
    const columns = waiting[0]!.values.map((_, k) => waiting.map((w) => w.values[k]));
    let rows: Record<string, unknown>[];
    try {
      rows = (await execute(batched, columns)).rows;
    } catch {
      await Promise.all(waiting.map((w) => alone(statement, w)));
      return;
    }
    const found: unknown[] = new Array(waiting.length);
    for (const row of rows) {
      const i = Number(row[RUN]) - 1;
      if (statement.kind === 'update') found[i] = 1n;
      else {
        delete row[RUN];
        found[i] ??= row;
      }
    }
    waiting.forEach((w, i) => w.resolve(statement.kind === 'update' ? (found[i] ?? 0n) : found[i]));
  }

  function statementOf(shape: BatchShape, kind: Statement['kind']): Statement {
    let statement = statements.get(shape.sql);
    if (statement) return statement;
    // Asked once; the first runs that come together wait for it. If it fails, the runs go alone.
    const batched = batchedSql(db, shape, `folio_probe_${++probes}`).then(
      (text) => {
        if (text !== null) named(text);
        return text;
      },
      () => null,
    );
    statement = { shape, kind, waiting: [], batched, inFlight: 0 };
    statements.set(shape.sql, statement);
    return statement;
  }

  function enqueue<T>(statement: Statement, values: readonly unknown[], key: unknown) {
    return new Promise<T>((resolve, reject) => {
      if (due.length === 0) setImmediate(flush);
      if (statement.waiting.length === 0 && !busy(statement)) due.push(statement);
      statement.waiting.push({ values, key, resolve: resolve as (result: unknown) => void, reject });
    });
  }

  return {
    first: (shape, values) => enqueue(statementOf(shape, 'first'), values, undefined),
    update: (shape, values, key) => enqueue(statementOf(shape, 'update'), values, key),
  };
}

/**
 * The batched form of `shape` (see createBatchedStatements), with its parameters' types as PostgreSQL decides them
 * for the statement itself; null when it has no parameters.
 */
export async function batchedSql(db: Kysely<any>, shape: BatchShape, probeName: string): Promise<string | null> {
  const types = await db.connection().execute(async (conn) => {
    await sql.raw(`prepare ${probeName} as ${shape.sql}`).execute(conn);
    try {
      const { rows } = await conn.executeQuery<{ types: string[] }>(
        CompiledQuery.raw('select parameter_types::text[] as types from pg_prepared_statements where name = $1', [
          probeName,
        ]),
      );
      return rows[0]?.types ?? [];
    } finally {
      await sql.raw(`deallocate ${probeName}`).execute(conn);
    }
  });
  if (types.length === 0) return null;
  const params = types.map((_, k) => `p${k + 1}`);
  // Each array behind a sub-select: were the arrays constants, PostgreSQL would plan every run for its own
  // count of runs and never settle on one plan (planning the joined lookups costs more than running them).
  const arrays = types.map((t, k) => `(select $${k + 1}::${t}[])`);
  const runs = `unnest(${arrays.join(', ')}) with ordinality as ${RUNS}(${params.join(', ')}, ${RUN})`;
  return shape.batched(runs, (text) => text.replace(/\$(\d+)\b/g, (_, k: string) => `${RUNS}.p${k}`));
}
