import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyReply, FastifyRequest, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type BuildOptions } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { responseChecker } from './response-check.js';

export const ADMIN_PASSWORD = 'admin-password-for-tests';

/** `Authorization` header value for HTTP Basic. */
export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}
export const ADMIN = basic('admin', ADMIN_PASSWORD);

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  config: Config;
  /** Moves the app's clock forward. */
  advance(ms: number): void;
  /** `app.inject` with admin credentials unless `headers.authorization` is given (or set to '' for none). */
  request(opts: InjectOptions): Promise<LightMyRequestResponse>;
  /** Creates a user with a role and answers its Basic header. */
  createUser(username: string, role: 'Viewer' | 'Contributor' | 'Editor' | 'Admin'): Promise<string>;
  /** Where its data is: another app built on it shares the database (a second node, or a restart). */
  data: TestData;
  /** Closes the app; its data goes too unless `keepData` (another app uses it, or will). */
  close(opts?: { keepData?: boolean }): Promise<void>;
}

/** A test app's data dir and, on PostgreSQL, its schema. */
export interface TestData {
  dir: string;
  pgSchema?: string;
}

/** Prefix of the PostgreSQL schemas test apps create; the name ends in its creation time (see scripts/test.mjs). */
export const TEST_SCHEMA_PREFIX = 't_';

/** A fresh schema name: `t_<random>_<creation time, base 36 ms>`, so a sweep can tell stale ones from running ones. */
function testSchemaName(): string {
  return `${TEST_SCHEMA_PREFIX}${randomBytes(4).toString('hex')}_${Date.now().toString(36)}`;
}

async function dropSchema(pgUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 10_000 });
  // A connection the server ends must reject the query below, not become an unhandled 'error' event.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

/**
 * Builds the app on a fresh temporary data dir: SQLite, or PostgreSQL in a schema of its own when
 * TEST_DATABASE_URL is set (so test files run side by side on one database). Responses are validated against
 * their schemas.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  build: Pick<BuildOptions, 'walSync' | 'logStream'> = {},
  /** The data of another test app, to build this one on (its migrations have run). */
  data?: TestData,
): Promise<TestApp> {
  const dir = data?.dir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'folio-test-')));
  const pgUrl = process.env.TEST_DATABASE_URL;
  const pgSchema = pgUrl ? (data?.pgSchema ?? testSchemaName()) : undefined;
  const config = loadConfig({
    CMS_DATA_DIR: dir,
    CMS_ADMIN_PASSWORD: ADMIN_PASSWORD,
    CMS_SEED: 'false',
    LOG_LEVEL: 'silent',
    ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
    ...env,
  });
  let offset = 0;
  let app: Awaited<ReturnType<typeof buildApp>>;
  // Each JSON response is checked against the OpenAPI document once it is known (right after ready); mismatches
  // are kept and thrown by the next `request` that ends, and by `close` for responses sent any other way.
  let check: ReturnType<typeof responseChecker> | null = null;
  const mismatches: string[] = [];
  const onResponseSent = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!check || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return;
    const problem = check({
      method: request.method,
      route: request.routeOptions.url,
      status: reply.statusCode,
      contentType: String(reply.getHeader('content-type') ?? ''),
      etag: reply.getHeader('etag') as string | undefined,
      download: reply.hasHeader('content-disposition'),
      body: payload.toString(),
    });
    if (problem) mismatches.push(problem);
  };
  try {
    app = await buildApp(config, {
      onResponseSent,
      // Silent unless a test reads the log (then at LOG_LEVEL, which it sets in `env`).
      ...(build.logStream ? {} : { logger: false as const }),
      strictAnswers: true,
      strictClaims: true,
      now: () => Date.now() + offset,
      pgSchema,
      ...build,
    });
    await app.ready();
    // The document as GET /cms/rest/openapi.json serves it (read directly: a request would leave state behind,
    // such as a remembered Basic credential).
    check = responseChecker(JSON.stringify(app.swagger()));
  } catch (err) {
    if (pgUrl && pgSchema) await dropSchema(pgUrl, pgSchema).catch(() => {});
    await fs.rm(dir, { recursive: true, force: true });
    throw err;
  }
  const request = async (opts: InjectOptions) => {
    const headers = { ...(opts.headers ?? {}) } as Record<string, string>;
    if (!('authorization' in headers)) headers.authorization = ADMIN;
    if (headers.authorization === '') delete headers.authorization;
    const res = await app.inject({ ...opts, headers });
    if (mismatches.length) {
      throw new Error(`Not as the OpenAPI document says:\n${mismatches.splice(0).join('\n')}`);
    }
    return res;
  };
  return {
    app,
    config,
    advance: (ms) => {
      offset += ms;
    },
    request,
    async createUser(username, role) {
      const password = `${username}-password`;
      const res = await request({ method: 'PUT', url: `/cms/rest/users/${username}`, payload: { role, password } });
      if (res.statusCode !== 201) throw new Error(`createUser ${username}: ${res.statusCode} ${res.body}`);
      return basic(username, password);
    },
    data: { dir, ...(pgSchema ? { pgSchema } : {}) },
    async close(opts = {}) {
      await app.close();
      const left = mismatches.splice(0);
      if (opts.keepData) {
        if (left.length) throw new Error(`Responses that do not match the OpenAPI document:\n${left.join('\n')}`);
        return;
      }
      if (left.length) {
        if (pgUrl && pgSchema) await dropSchema(pgUrl, pgSchema).catch(() => {});
        await fs.rm(dir, { recursive: true, force: true });
        throw new Error(`Responses that do not match the OpenAPI document:\n${left.join('\n')}`);
      }
      if (pgUrl && pgSchema) await dropSchema(pgUrl, pgSchema);
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Asserts the shape of a problem response and answers its body. */
export function problemOf(res: LightMyRequestResponse) {
  if (!String(res.headers['content-type']).startsWith('application/problem+json')) {
    throw new Error(`Expected problem+json, got ${res.headers['content-type']}: ${res.body}`);
  }
  return res.json() as {
    type: string;
    title: string;
    status: number;
    detail: string;
    code: string;
    errors?: { path: string; message: string }[];
  };
}

/** The SQL of every query `t`'s app sends through `db.executeQuery` (every prepared query) while `run` runs. */
export async function statementsOf(t: TestApp, run: () => Promise<unknown>): Promise<string[]> {
  const db = t.app.folio.ctx.db;
  const seen: string[] = [];
  const execute = db.executeQuery.bind(db);
  db.executeQuery = ((query: Parameters<typeof execute>[0]) => {
    seen.push('sql' in query ? query.sql : query.compile().sql);
    return execute(query);
  }) as typeof db.executeQuery;
  try {
    await run();
  } finally {
    db.executeQuery = execute;
  }
  return seen;
}
