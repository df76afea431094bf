import { CompiledQuery, sql, type Compilable, type Kysely, type RawBuilder } from 'kysely';
import { GENERATION_BUMP_WITH } from '../lib/change-generation.js';
import {
  createBatchedStatements,
  lookupShape,
  updateShape,
  type BatchedStatements,
  type BatchShape,
} from './batched-statements.js';
import { isPostgres } from './dialect.js';

/** Marks where a parameter's value goes while a prepared query is compiled once. */
const SENTINEL = '\u0000folio-param\u0000';

interface Plan {
  sql: string;
  /** The plan as a batched lookup (`batched` queries on PostgreSQL). */
  shape?: BatchShape;
  /** Per bound parameter: the caller's parameter, a proof's value (by index), or a constant the builder wrote in. */
  slots: ({ param: string } | { proof: number } | { value: unknown })[];
}

/** Synchronous reads of one row (Database.readNow: SQLite's own read-only connection). */
export type ReadNow = (sql: string, parameters: readonly unknown[]) => unknown;

/**
 * How a lookup reads: with `now`, synchronously through it (SQLite); with `proof`, the row has a `proven` column
 * telling whether the proof's condition holds (an ActorClaim's), read in the same statement.
 */
export interface LookupMode {
  now?: ReadNow | undefined;
  proof?: StatementProof | undefined;
}

/** The mode of a lookup given none: answered by a promise. */
export interface Later {
  now?: undefined;
}

/** What a lookup in `mode` answers: the row now when a `now` is given, a promise of it when none is. */
export type Answer<M, T> = M extends { now: ReadNow } ? T : M extends { now?: undefined } ? Promise<T> : T | Promise<T>;

/** `f` applied to an answer, synchronously when it is not a promise. */
export function mapAnswer<M, T, U>(answer: Answer<M, T>, f: (t: T) => U): Answer<M, U> {
  return andThen(answer as T | Promise<T>, f) as Answer<M, U>;
}

/** `f` applied to `x`, synchronously when `x` is not a promise: how a read that may answer now goes on. */
export function andThen<T, U>(x: T | Promise<T>, f: (t: T) => U | Promise<U>): U | Promise<U> {
  return x instanceof Promise ? x.then(f) : f(x);
}

export interface PreparedQuery<P, R> {
  /** Every row. */
  all(db: Kysely<any>, params: P): Promise<R[]>;
  /** The first row, or undefined, read as `mode` says. */
  first<M extends LookupMode = Later>(db: Kysely<any>, params: P, mode?: M): Answer<M, R | undefined>;
  /** Rows changed (UPDATE, DELETE, INSERT). */
  run(db: Kysely<any>, params: P): Promise<bigint>;
}

/**
 * A query of a fixed shape, built and compiled by Kysely once per dialect (and proof condition) and then run with
 * new values.
 *
 * Kysely builds every query as a tree of frozen nodes and compiles it to SQL on every call. For the small indexed
 * queries on a request's path that costs more than running them (a profile of PUT page: ~45 % of the CPU in
 * Kysely's builder and compiler, ~20 % in SQLite). `build` gets a stand-in for each parameter; each must be used as
 * a value as it is (not transformed, not spliced into SQL), which is checked on the first compile. A lookup that
 * can prove a claim puts `proven` (`, <condition> as proven`, or nothing) in its select list. Queries whose SQL
 * depends on the values (an `in` list, optional conditions) stay ordinary Kysely queries.
 *
 * Works in transactions too: a `Transaction` is a `Kysely` on the same dialect.
 */
export function prepared<P extends Record<string, unknown>, R>(
  build: (db: Kysely<any>, p: P, proven: RawBuilder<unknown>) => Compilable<R> | RawBuilder<R>,
  opts: {
    /**
     * A lookup of at most one row: on PostgreSQL, outside a transaction, `first` runs made at the same time go out
     * as one statement (db/batched-statements.ts).
     */
    batched?: boolean;
  } = {},
): PreparedQuery<P, R> {
  // Per dialect adapter (SQLite and PostgreSQL write different SQL; a transaction shares its database's adapter),
  // then per proof condition ('' for none).
  const plans = new WeakMap<object, Map<string, Plan>>();

  function plan(db: Kysely<any>, proof?: StatementProof): Plan {
    const adapter = db.getExecutor().adapter;
    let byCondition = plans.get(adapter);
    if (!byCondition) plans.set(adapter, (byCondition = new Map()));
    const known = byCondition.get(proof?.condition ?? '');
    if (known) return known;
    const used = new Set<string>();
    const stand = new Proxy(
      {},
      {
        get: (_target, name) => {
          used.add(String(name));
          return `${SENTINEL}${String(name)}`;
        },
      },
    ) as P;
    let proven = sql``;
    if (proof) {
      const parts = proof.condition.split('{}');
      const condition = parts.flatMap((part, i) =>
        i < parts.length - 1 ? [sql.raw(part), sql`${`${SENTINEL}#${i}`}`] : [sql.raw(part)],
      );
      proven = sql`, ${sql.join(condition, sql``)} as proven`;
    }
    // Query builders compile on their own; a raw `sql` template needs the database to compile against.
    const compiled = (build(db, stand, proven) as unknown as { compile(db: Kysely<any>): CompiledQuery<R> }).compile(
      db,
    );
    if (compiled.sql.includes(SENTINEL)) {
      throw new Error(`prepared: a parameter was spliced into the SQL instead of bound: ${compiled.sql}`);
    }
    const slots: Plan['slots'] = compiled.parameters.map((v) => {
      if (typeof v !== 'string' || !v.startsWith(SENTINEL)) return { value: v };
      const name = v.slice(SENTINEL.length);
      return name.startsWith('#') ? { proof: Number(name.slice(1)) } : { param: name };
    });
    for (const name of used) {
      if (!slots.some((s) => 'param' in s && s.param === name)) {
        throw new Error(`prepared: parameter "${name}" was transformed, not bound as it is: ${compiled.sql}`);
      }
    }
    if (proof && !slots.some((s) => 'proof' in s)) {
      throw new Error(`prepared: this query does not take a proof: ${compiled.sql}`);
    }
    const made: Plan = { sql: compiled.sql, slots };
    if (opts.batched && isPostgres(db)) made.shape = lookupShape(made.sql);
    nameStatement(made.sql);
    byCondition.set(proof?.condition ?? '', made);
    return made;
  }

  function valuesOf({ slots }: Plan, params: P, proof?: StatementProof) {
    return slots.map((s) => ('param' in s ? params[s.param] : 'proof' in s ? proof!.values[s.proof] : s.value));
  }

  async function execute(db: Kysely<any>, params: P) {
    const made = plan(db);
    return db.executeQuery<R>(CompiledQuery.raw(made.sql, valuesOf(made, params)));
  }

  async function firstLater(db: Kysely<any>, made: Plan, values: unknown[]) {
    if (made.shape && !db.isTransaction) return batchedOf(db).first<R>(made.shape, values);
    return (await db.executeQuery<R>(CompiledQuery.raw(made.sql, values))).rows[0];
  }

  return {
    async all(db, params) {
      return (await execute(db, params)).rows;
    },
    first<M extends LookupMode>(db: Kysely<any>, params: P, mode?: M) {
      const made = plan(db, mode?.proof);
      const values = valuesOf(made, params, mode?.proof);
      const answer = mode?.now ? (mode.now(made.sql, values) as R | undefined) : firstLater(db, made, values);
      return answer as Answer<M, R | undefined>;
    },
    async run(db, params) {
      return (await execute(db, params)).numAffectedRows ?? 0n;
    },
  };
}

/**
 * A condition a write must also meet, in SQL with `{}` where each of `values` goes in order (bound, never spliced):
 * from a small fixed set of texts, as each text is a prepared statement of its own.
 */
export interface StatementProof {
  condition: string;
  values: readonly unknown[];
}

/** One StatementProof that holds when every one of `proofs` does (the undefined ones are left out). */
export function allOf(...proofs: (StatementProof | undefined)[]): StatementProof | undefined {
  const present = proofs.filter((p): p is StatementProof => p !== undefined);
  if (present.length < 2) return present[0];
  return {
    condition: present.map((p) => `(${p.condition})`).join(' and '),
    values: present.flatMap((p) => p.values),
  };
}

/**
 * `update <table> set <patch> where <key> = ?`, prepared once per dialect and set of patched columns (a PUT patches
 * the same few columns every time). With a `guardColumn`, `and <guard> = ?` too: the update happens only if that
 * column still holds the value read before (`run`'s `guard`). With `bumpsGeneration`, the statement also bumps
 * the change generation on PostgreSQL (lib/change-generation.ts `GENERATION_BUMP_WITH`), whether or not it updates
 * a row.
 */
export function preparedUpdate<Row extends Record<string, unknown>>(
  table: string,
  keyColumn: string,
  /** Columns every run also sets to their value plus one (`doc_seq = doc_seq + 1`). */
  increments: readonly string[] = [],
  guardColumn?: string,
  opts: {
    bumpsGeneration?: boolean;
    /**
     * On PostgreSQL, outside a transaction, runs made at the same time go out as one statement (of distinct rows;
     * db/batched-statements.ts), so they commit together.
     */
    batched?: boolean;
  } = {},
) {
  const bumps = Object.fromEntries(increments.map((c) => [c, sql`${sql.ref(c)} + 1`]));
  const plans = new WeakMap<object, Map<string, { sql: string; shape?: BatchShape }>>();
  return {
    /**
     * Updates the row `key` with `patch` (if `guard` still holds); with a `proof`, only if its condition holds too
     * (an ActorClaim proven by the write itself).
     */
    async run(
      db: Kysely<any>,
      key: unknown,
      patch: Partial<Row>,
      guard?: unknown,
      proof?: StatementProof,
    ): Promise<bigint> {
      if ((guardColumn === undefined) !== (guard === undefined)) {
        throw new Error(`preparedUpdate: a guard value goes with a guard column (${guardColumn ?? 'none'})`);
      }
      const columns = Object.keys(patch);
      const adapter = db.getExecutor().adapter;
      let byShape = plans.get(adapter);
      if (!byShape) plans.set(adapter, (byShape = new Map()));
      const shape = `${proof ? `${proof.condition}\u0002` : ''}${columns.join('\u0001')}`;
      let made = byShape.get(shape);
      if (made === undefined) {
        // Compiled with the real values once, so the SQL is Kysely's own; the values are bound in column order,
        // then the key.
        let query = db
          .updateTable(table)
          .set({ ...patch, ...bumps } as never)
          .where(keyColumn as never, '=', key as never);
        if (guardColumn !== undefined) query = query.where(guardColumn as never, '=', guard as never);
        const compiled = query.compile();
        const bound = columns.length + (guardColumn === undefined ? 1 : 2);
        if (compiled.parameters.length !== bound) {
          throw new Error(`preparedUpdate: expected ${bound} bound values: ${compiled.sql}`);
        }
        let sql = compiled.sql;
        // The proof's values are bound after the update's own.
        const pg = isPostgres(db);
        let next = bound + 1;
        if (proof) sql += ` and ${proof.condition.replaceAll('{}', () => (pg ? `$${next++}` : '?'))}`;
        const prefix = opts.bumpsGeneration && pg ? `with ${GENERATION_BUMP_WITH} ` : '';
        // Kysely's `update … set … where …`: the `set` binds values only, so its first ` where ` is the statement's.
        const where = prefix.length + compiled.sql.indexOf(' where ');
        sql = prefix + sql;
        nameStatement(sql);
        made = { sql, ...(opts.batched && pg ? { shape: updateShape(sql, where, prefix.length) } : {}) };
        byShape.set(shape, made);
      }
      const values = columns.map((c) => (patch as Record<string, unknown>)[c]);
      values.push(key);
      if (guardColumn !== undefined) values.push(guard);
      if (proof) values.push(...proof.values);
      if (made.shape && !db.isTransaction) return batchedOf(db).update(made.shape, values, key);
      const r = await db.executeQuery(CompiledQuery.raw(made.sql, values));
      return r.numAffectedRows ?? 0n;
    },
  };
}

/** Per database (PostgreSQL): its batched statements. */
const BATCHED = new WeakMap<Kysely<any>, BatchedStatements>();

function batchedOf(db: Kysely<any>): BatchedStatements {
  let batched = BATCHED.get(db);
  if (!batched) BATCHED.set(db, (batched = createBatchedStatements(db, nameStatement)));
  return batched;
}

/** The SQL of every query made with `prepared` or `preparedUpdate` (a fixed, small set), each with a name. */
const STATEMENT_NAMES = new Map<string, string>();

function nameStatement(sql: string): void {
  if (!STATEMENT_NAMES.has(sql)) STATEMENT_NAMES.set(sql, `folio_${STATEMENT_NAMES.size + 1}`);
}

/**
 * The name a PostgreSQL connection prepares `sql` under (database.ts), when it is the SQL of a prepared query;
 * undefined for every other query. PostgreSQL plans an unnamed statement at every run, and planning a joined
 * lookup costs it several times what running it does; a named one is planned when first run on a connection and
 * its plan kept.
 */
export function statementName(sql: string): string | undefined {
  return STATEMENT_NAMES.get(sql);
}
