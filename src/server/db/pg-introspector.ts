import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/**
 * Introspection of the connection's own schema only (`current_schema()`), by catalog OIDs.
 *
 * Kysely's PostgreSQL introspector (used by its migrator to find its own tables) lists the tables of every schema
 * and calls `has_schema_privilege(name, …)` on each by name: when another session drops a schema during that
 * scan, the call fails with 3F000 "schema … does not exist" and so does the migration. Parallel test files create
 * and drop schemas all the time (CI failed on it); another installation in the same database could do the same.
 * Folio's migrations only ever look at their own schema, so this one never reads another. Columns are not listed
 * (nothing in Folio asks for them).
 */
class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const r = await sql<{ name: string }>`select current_schema() as name`.execute(this.db);
    return r.rows.filter((row) => row.name !== null);
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const r = await sql<{ schema: string; name: string; kind: string }>`
      select n.nspname as schema, c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p', 'f', 'm')
      order by c.relname`.execute(this.db);
    return r.rows
      .filter((t) => options.withInternalKyselyTables || !t.name.startsWith('kysely_'))
      .map((t) => ({ name: t.name, schema: t.schema, isView: t.kind === 'v' || t.kind === 'm', columns: [] }));
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** Kysely's PostgreSQL dialect with introspection limited to the connection's own schema. */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}
