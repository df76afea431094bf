import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * The only place that knows SQLite from PostgreSQL. Services and repositories call these helpers
 * instead of branching on the dialect themselves.
 */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Host part of every id, as the reference system writes it. */
export const ID_HOST = 16777215;

/** Object-type part of ids: one code per family of objects. */
export const ID_TYPE = {
  page: 101,
  folder: 301,
  asset: 401,
  widget: 501,
} as const;
export type IdType = keyof typeof ID_TYPE;

/**
 * The one id generator: `<host>-<type>-<sequence>`, the sequence shared by every family and kept in the
 * database (a PostgreSQL sequence, or a counter row in SQLite, whose writes are serialised), so ids never
 * collide across processes.
 */
export async function nextId(db: Kysely<any>, type: IdType): Promise<string> {
  let n: number;
  if (isPostgres(db)) {
    const r = await sql<{ n: string }>`select nextval('folio_ids') as n`.execute(db);
    n = Number(r.rows[0]!.n);
  } else {
    const r = await db
      .updateTable('counters')
      .set({ value: sql`value + 1` })
      .where('name', '=', 'ids')
      .returning('value')
      .executeTakeFirstOrThrow();
    n = Number(r.value);
  }
  return `${ID_HOST}-${ID_TYPE[type]}-${n}`;
}

/** True when `err` is a violation of a unique or primary key constraint (both dialects). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when `err` is a violation of a foreign key constraint (both dialects). */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * True when `err` says a write collided with another transaction's write to the same rows: a unique or foreign
 * key violation that a service did not turn into its own answer (a row inserted, or a parent deleted, by a
 * request that committed a moment earlier, on this node or another), or on PostgreSQL a serialization failure
 * or a deadlock. Nothing is written in that case (the transaction rolls back); the client may reload and retry.
 */
export function isConcurrentWriteConflict(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return isUniqueViolation(err) || isForeignKeyViolation(err) || e?.code === '40001' || e?.code === '40P01';
}

/**
 * Locks rows read by `query` until the transaction ends: `FOR UPDATE` on PostgreSQL; SQLite needs nothing
 * because its writers are serialised.
 */
export function forUpdate<Q extends { forUpdate(): Q }>(db: Kysely<any>, query: Q): Q {
  return isPostgres(db) ? query.forUpdate() : query;
}

/** Number from a count or bigint column (PostgreSQL returns bigint as a string). */
export function toNumber(v: unknown): number {
  return typeof v === 'number' ? v : Number(v ?? 0);
}

/** Escapes `%`, `_` and `\` for a LIKE pattern with `escape '\'`. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A GLOB character class matching `ch` in any case (`[aA]`), or `ch` itself, escaped. */
function globClass(ch: string): string {
  const variants = new Set([ch]);
  for (const v of [ch.toLowerCase(), ch.toUpperCase()]) if ([...v].length === 1) variants.add(v);
  if (variants.size > 1) return `[${[...variants].join('')}]`;
  return ch === '*' || ch === '?' || ch === '[' ? `[${ch}]` : ch;
}

/**
 * Condition "`column` (or an expression) contains `text`, ignoring case", Unicode-aware on both dialects: PostgreSQL compares
 * `lower()` of both sides under the database's own collation (the columns' bytewise "C" folds ASCII only);
 * SQLite, whose `lower()` and `LIKE` fold ASCII only, matches a GLOB pattern with a `[xX]` class per cased
 * character.
 */
export function containsIgnoringCase(
  db: Kysely<any>,
  column: string | RawBuilder<string | null>,
  text: string,
): RawBuilder<boolean> {
  const value = typeof column === 'string' ? sql.ref(column) : column;
  if (isPostgres(db)) {
    return sql<boolean>`lower(${value} collate "default") like lower(${`%${escapeLike(text)}%`}) escape '\\'`;
  }
  const pattern = `*${[...text].map(globClass).join('')}*`;
  return sql<boolean>`${value} glob ${pattern}`;
}

/**
 * A text value (a parameter) that combines with text columns: on PostgreSQL it takes their bytewise collation,
 * which a recursive query needs when it mixes the value with a column in one result column (`cast(? as text)`
 * alone would be the database's default collation, and PostgreSQL refuses the mix).
 */
export function textValue(db: Kysely<any>, value: string): RawBuilder<string> {
  return isPostgres(db)
    ? sql<string>`cast(${value} as text) collate ${sql.id(PG_TEXT_COLLATION)}`
    : sql<string>`cast(${value} as text)`;
}

/**
 * The text value of `key` in a column holding a JSON object as text (null when the key is absent): SQLite's
 * `json_extract`, PostgreSQL's `->>` on the column read as `jsonb`.
 */
export function jsonTextField(db: Kysely<any>, column: string, key: string): RawBuilder<string | null> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`Not a plain JSON key: ${key}`);
  return isPostgres(db)
    ? sql<string | null>`(cast(${sql.ref(column)} as jsonb) ->> ${key})`
    : sql<string | null>`json_extract(${sql.ref(column)}, ${`$.${key}`})`;
}

/** The collation PostgreSQL text columns use: bytewise (code point) order, as SQLite's BINARY. */
export const PG_TEXT_COLLATION = 'C';

/**
 * Text columns of the current schema whose PostgreSQL collation is not bytewise (none on SQLite, whose text
 * compares bytewise always). Kysely's own tables are left out.
 */
export async function textColumnsWithoutByteOrder(
  db: Kysely<any>,
): Promise<{ table: string; column: string; type: string }[]> {
  if (!isPostgres(db)) return [];
  const r = await sql<{ table: string; column: string; type: string }>`
    select c.table_name as "table", c.column_name as "column",
           case when c.data_type = 'character varying' and c.character_maximum_length is not null
                then 'varchar(' || c.character_maximum_length || ')'
                when c.data_type = 'character varying' then 'varchar' else 'text' end as "type"
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
      and c.data_type in ('text', 'character varying')
      and coalesce(c.collation_name, '') <> ${PG_TEXT_COLLATION}
      and c.table_name not like 'kysely\_%'
    order by c.table_name, c.column_name`.execute(db);
  return r.rows;
}

/**
 * Makes every text column compare and sort bytewise on PostgreSQL, whatever the database's default collation
 * (often a language's, e.g. en_US, which sorts `a` before `B` and skips punctuation): ORDER BY, keyset cursors
 * and unique names then behave exactly as on SQLite. Indexes on the columns are rebuilt; rows are not rewritten.
 */
export async function useByteOrderForText(db: Kysely<any>): Promise<void> {
  for (const c of await textColumnsWithoutByteOrder(db)) {
    await sql`alter table ${sql.id(c.table)} alter column ${sql.id(c.column)} type ${sql.raw(c.type)} collate ${sql.id(PG_TEXT_COLLATION)}`.execute(
      db,
    );
  }
}
