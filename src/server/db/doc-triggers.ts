/**
 * The triggers that keep stored docs true (and since migration 0380 every other trigger: the change log, the search
 * queue, the revisions, SQLite's full-text tables), rendered for SQLite or PostgreSQL from one description: a list
 * of rules, each "when this row of this table is inserted, updated or deleted and this holds, do that". A migration
 * holds its own list (never edit one that shipped); this file only renders.
 *
 * - SQLite: one AFTER trigger per table and event. Its `WHEN` is any of its rules' conditions, and each rule's
 *   statements carry their own condition in their `WHERE` (evaluated once: it reads only `old`/`new`).
 *   `recursive_triggers` is off, so a trigger's update of its own table does not fire it again.
 * - PostgreSQL: per table, one BEFORE trigger (rules that set columns of the written row) and one AFTER trigger
 *   (rules that write other rows), each one PL/pgSQL function that tests the event and then each rule's condition.
 *   A table named in `perStatement` runs its AFTER rules once per statement instead: one function, and one trigger
 *   per event over the statement's transition tables (PostgreSQL allows them on single-event triggers only); each
 *   statement reads the written rows as `new`/`old` from `rows` and carries its rule's condition in its `WHERE`.
 *   An event's ungated statements run as one statement (a data-modifying `WITH`), so they all see the tables as they
 *   were before the trigger: a rule that reads what another rule of the event writes must be gated, as gated rules
 *   run after them, each only when its gate holds.
 */

export type DocEvent = 'insert' | 'update' | 'delete';

/** What a rule's SQL is rendered for: the dialect, and on SQLite the rule's condition for a statement's `WHERE`. */
export interface RenderContext {
  pg: boolean;
  /** `true` where a PostgreSQL function has tested the condition; else the rule's condition. */
  guard: string;
  /**
   * Where `new`/`old` come from: empty once per row; on a statement-level trigger a `from` over the transition
   * tables. A statement that reads them selects from it: `select new.x ${rows} where … and ${guard}`.
   */
  rows: string;
}

/** SQL in the subset both dialects read, with the few spellings that differ asked of the context. */
export type Sql = string | ((c: RenderContext) => string);

export interface DocRule {
  table: string;
  on: readonly DocEvent[];
  /** Holds for the rows the rule applies to (`old.`/`new.` columns; a subquery is fine). */
  when?: Sql;
  /**
   * Holds or not for the whole statement, reading no row of it (a setting's row, say): on PostgreSQL tested once
   * before the rule's statements, which are not run at all when it does not hold; on SQLite part of the condition.
   */
  gate?: string;
  /** Columns of the written row to set (insert and update only): `new.` expressions. */
  set?: Readonly<Record<string, string>>;
  /** Statements run after the write; each must end its `WHERE` with `and ${guard}` (see `RenderContext`). */
  run?: readonly Sql[];
  /** Rendered on this dialect only (SQLite's full-text tables follow their rows by trigger; PostgreSQL's do not). */
  only?: 'sqlite' | 'pg';
}

/** Where `set` finds the written row on SQLite (an update of it after the write). */
export type RowKeys = Readonly<Record<string, string>>;

const text = (s: Sql, c: RenderContext) => (typeof s === 'string' ? s : s(c));

/** `a` differs from `b`, nulls compared as values. */
export const distinct =
  (a: string, b: string): Sql =>
  (c) =>
    `${a} ${c.pg ? 'is distinct from' : 'is not'} ${b}`;

/** Any of `columns` changed. */
export const changed =
  (...columns: string[]): Sql =>
  (c) =>
    `(${columns.map((col) => text(distinct(`old.${col}`, `new.${col}`), c)).join(' or ')})`;

/** Every one of `parts` holds. */
export const all =
  (...parts: Sql[]): Sql =>
  (c) =>
    `(${parts.map((p) => text(p, c)).join(' and ')})`;

/** Any one of `parts` holds. */
export const any =
  (...parts: Sql[]): Sql =>
  (c) =>
    `(${parts.map((p) => text(p, c)).join(' or ')})`;

/** The later of two values. */
export const later =
  (a: string, b: string): Sql =>
  (c) =>
    `${c.pg ? 'greatest' : 'max'}(${a}, ${b})`;

export interface RenderedTriggers {
  /** Statements creating the triggers (and on PostgreSQL their functions). */
  create: string[];
  /** Statements dropping them again. */
  drop: string[];
  /** How many triggers and functions the database holds once created. */
  count: number;
}

const EVENTS: readonly DocEvent[] = ['insert', 'update', 'delete'];

/**
 * The triggers and functions that carry out `rules` on the dialect, named `<prefix>_<table>_…` (`docs` unless a
 * later migration renders a list of its own beside it).
 */
export function renderDocTriggers(
  rules: readonly DocRule[],
  keys: RowKeys,
  pg: boolean,
  prefix = 'docs',
  perStatement: readonly string[] = [],
): RenderedTriggers {
  const mine = rules.filter((r) => !r.only || r.only === (pg ? 'pg' : 'sqlite'));
  const tables = [...new Set(mine.map((r) => r.table))];
  const out: RenderedTriggers = { create: [], drop: [], count: 0 };
  for (const table of tables) {
    const own = mine.filter((r) => r.table === table);
    if (pg) renderPg(prefix, table, own, keys, perStatement.includes(table), out);
    else renderSqlite(prefix, table, own, keys, out);
  }
  return out;
}

function statementsOf(rule: DocRule, keys: RowKeys, c: RenderContext, pg: boolean): string[] {
  const out: string[] = [];
  if (rule.set) {
    const entries = Object.entries(rule.set);
    if (pg) out.push(...entries.map(([col, value]) => `new.${col} := ${value}`));
    else {
      const key = keys[rule.table];
      if (!key) throw new Error(`No key to set columns of ${rule.table} by`);
      const assignments = entries.map(([col, value]) => `${col} = ${value}`).join(', ');
      out.push(`update ${rule.table} set ${assignments} where ${key} = new.${key} and ${c.guard}`);
    }
  }
  for (const s of rule.run ?? []) out.push(text(s, c));
  return out;
}

function renderSqlite(prefix: string, table: string, rules: readonly DocRule[], keys: RowKeys, out: RenderedTriggers) {
  for (const event of EVENTS) {
    const mine = rules.filter((r) => r.on.includes(event));
    if (!mine.length) continue;
    const conditions = mine.map((r) => {
      const parts = [r.when ? text(r.when, { pg: false, guard: 'true', rows: '' }) : null, r.gate ?? null];
      const held = parts.filter((c): c is string => c !== null);
      return held.length ? `(${held.join(' and ')})` : null;
    });
    const when = conditions.every((w) => w !== null) ? ` when ${conditions.join(' or ')}` : '';
    const body = mine.flatMap((r, i) =>
      statementsOf(r, keys, { pg: false, guard: conditions[i] ?? 'true', rows: '' }, false),
    );
    const name = `${prefix}_${table}_${event}`;
    out.create.push(`create trigger ${name} after ${event} on ${table}${when}\nbegin\n  ${body.join(';\n  ')};\nend`);
    out.drop.push(`drop trigger if exists ${name}`);
    out.count += 1;
  }
}

function renderPg(
  prefix: string,
  table: string,
  rules: readonly DocRule[],
  keys: RowKeys,
  perStatement: boolean,
  out: RenderedTriggers,
) {
  for (const timing of ['before', 'after'] as const) {
    const mine = rules.filter((r) => (timing === 'before' ? !!r.set : !r.set));
    if (!mine.length) continue;
    const events = EVENTS.filter((e) => mine.some((r) => r.on.includes(e)));
    if (timing === 'after' && perStatement) {
      renderPgStatement(prefix, table, mine, keys, events, out);
      continue;
    }
    const row: RenderContext = { pg: true, guard: 'true', rows: '' };
    const branches = events.map((event) => {
      const body = mine
        .filter((r) => r.on.includes(event))
        .map((r) => {
          const statements = statementsOf(r, keys, row, true).map((s) => `${s};`);
          const condition = [r.when ? text(r.when, row) : null, r.gate ?? null].filter((c) => c !== null);
          return condition.length
            ? `if ${condition.join(' and ')} then\n      ${statements.join('\n      ')}\n    end if;`
            : statements.join('\n    ');
        });
      return `if tg_op = '${event.toUpperCase()}' then\n    ${body.join('\n    ')}\n  end if;`;
    });
    const fn = `folio_${prefix}_${table}_${timing}`;
    const trigger = `${prefix}_${table}_${timing}`;
    const result = timing === 'before' ? 'new' : 'null';
    out.create.push(
      `create function ${fn}() returns trigger language plpgsql as $$\nbegin\n  ${branches.join('\n  ')}\n  return ${result};\nend $$`,
      `create trigger ${trigger} ${timing} ${events.join(' or ')} on ${table} for each row execute function ${fn}()`,
    );
    out.drop.push(`drop trigger if exists ${trigger} on ${table}`, `drop function if exists ${fn}()`);
    out.count += 2;
  }
}

/** A table's AFTER rules on PostgreSQL, once per statement (see the head of this file). */
function renderPgStatement(
  prefix: string,
  table: string,
  rules: readonly DocRule[],
  keys: RowKeys,
  events: readonly DocEvent[],
  out: RenderedTriggers,
) {
  const key = keys[table];
  if (!key) throw new Error(`No key to join the old and new rows of ${table} by`);
  const newRows = `folio_new_${table}`;
  const oldRows = `folio_old_${table}`;
  const rowsOf: Record<DocEvent, string> = {
    insert: `from ${newRows} new`,
    update: `from ${newRows} new join ${oldRows} old on old.${key} = new.${key}`,
    delete: `from ${oldRows} old`,
  };
  const fn = `folio_${prefix}_${table}_after`;
  const branches = events.map((event) => {
    const rows = rowsOf[event];
    const statementsOfRule = (r: DocRule) => {
      const guard = r.when ? `(${text(r.when, { pg: true, guard: 'true', rows })})` : 'true';
      return statementsOf(r, keys, { pg: true, guard, rows }, true);
    };
    const mine = rules.filter((r) => r.on.includes(event));
    // The ungated rules' statements as one (one executor run instead of one each); the gated ones after it.
    const folded = mine.filter((r) => !r.gate).flatMap(statementsOfRule);
    const body = folded.length ? [`${asOneStatement(folded)};`] : [];
    for (const r of mine.filter((r) => r.gate)) {
      const statements = statementsOfRule(r).map((s) => `${s};`);
      body.push(`if ${r.gate} then\n      ${statements.join('\n      ')}\n    end if;`);
    }
    return `if tg_op = '${event.toUpperCase()}' then\n    ${body.join('\n    ')}\n  end if;`;
  });
  // The transition tables are named `new` and `old` in the statements, as the function's own (null) records are.
  out.create.push(
    `create function ${fn}() returns trigger language plpgsql as $$\n#variable_conflict use_column\nbegin\n  ${branches.join('\n  ')}\n  return null;\nend $$`,
  );
  for (const event of events) {
    const trigger = `${prefix}_${table}_${event}`;
    const tables = [
      event !== 'insert' ? `old table as ${oldRows}` : '',
      event !== 'delete' ? `new table as ${newRows}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    out.create.push(
      `create trigger ${trigger} after ${event} on ${table} referencing ${tables} for each statement execute function ${fn}()`,
    );
    out.drop.push(`drop trigger if exists ${trigger} on ${table}`);
  }
  out.drop.push(`drop function if exists ${fn}()`);
  out.count += 1 + events.length;
}

/** Data-modifying statements as one: each but the last in a `WITH`, the last as the statement itself. */
function asOneStatement(statements: readonly string[]): string {
  const withs = statements.slice(0, -1).map((s, i) => `folio_${i} as (${s})`);
  return `${withs.length ? `with ${withs.join(',\n    ')}\n    ` : ''}${statements.at(-1)}`;
}
