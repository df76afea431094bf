import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MAIN = path.join(ROOT, 'src/server/main.ts');

/** Prefix of the databases the multi-node tests create (stale ones are dropped by scripts/test.mjs). */
export const CLUSTER_DB_PREFIX = 'folio_mn_';

/** One server process, started the way production starts it (`main.ts`, env config), on its own port. */
export interface ServerNode {
  name: string;
  url: string;
  /** Every log line it wrote (JSON from the logger, or plain text). */
  lines: string[];
  process: ChildProcess;
  /** `fetch` against this node. */
  fetch(pathAndQuery: string, init?: RequestInit): Promise<Response>;
}

/** A PostgreSQL database of its own, created for a test and dropped afterwards. */
export interface TestDatabase {
  url: string;
  name: string;
  query<R extends pg.QueryResultRow = any>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  drop(): Promise<void>;
}

/** A short-lived client for create/drop; a connection error rejects its query instead of going unhandled. */
function adminClient(url: string): pg.Client {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  return client;
}

/**
 * Creates an empty database next to the one `baseUrl` names (same server, same credentials); `icuLocale`
 * gives it that ICU collation as its default (PostgreSQL 15+).
 */
export async function createTestDatabase(baseUrl: string, opts: { icuLocale?: string } = {}): Promise<TestDatabase> {
  const name = `${CLUSTER_DB_PREFIX}${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = adminClient(baseUrl);
  await admin.connect();
  try {
    const locale = opts.icuLocale
      ? ` template template0 locale_provider icu icu_locale '${opts.icuLocale.replace(/[^A-Za-z0-9-]/g, '')}' locale 'C.UTF-8'`
      : '';
    await admin.query(`create database "${name}"${locale}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  // An idle connection the server ends (the drop below, a restart) must not become an unhandled error.
  pool.on('error', () => {});
  return {
    url: url.toString(),
    name,
    query: (text, values) => pool.query(text, values as unknown[]),
    async drop() {
      await pool.end();
      const c = adminClient(baseUrl);
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * Starts server processes at the same moment with the same environment (one database, one blob store), each
 * on a port of its own, and resolves once every one listens. Rejects (and kills them all) when one exits or
 * does not listen within `timeoutMs`. With FOLIO_NODE_LOG_DIR set, each node's log is also kept in
 * `<dir>/<name>.log` (to read a failure's stack trace).
 */
export async function startNodes(
  names: string[],
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<{ nodes: ServerNode[]; stop(): Promise<void> }> {
  const dataDirs: string[] = [];
  const started: ServerNode[] = [];
  const stop = async () => {
    await Promise.all(started.map((n) => stopNode(n)));
    await Promise.all(dataDirs.map((d) => fs.rm(d, { recursive: true, force: true })));
  };
  try {
    const pending = names.map(async (name) => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `folio-node-${name}-`));
      dataDirs.push(dataDir);
      const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? os.tmpdir(),
          HOST: '127.0.0.1',
          PORT: '0',
          CMS_DATA_DIR: dataDir,
          CMS_WEB_DIR: path.join(dataDir, 'no-spa'),
          LOG_LEVEL: 'info',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const node: ServerNode = {
        name,
        url: '',
        lines: [],
        process: child,
        fetch: (p, init) => fetch(`${node.url}${p}`, init),
      };
      started.push(node);
      node.url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`node ${name} did not listen in time:\n${node.lines.join('\n')}`)),
          timeoutMs,
        );
        const logFile = process.env.FOLIO_NODE_LOG_DIR
          ? path.join(process.env.FOLIO_NODE_LOG_DIR, `${name}.log`)
          : null;
        const onLine = (line: string) => {
          node.lines.push(line);
          if (logFile) void fs.appendFile(logFile, `${line}\n`);
          const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        };
        readLines(child.stdout!, onLine);
        readLines(child.stderr!, onLine);
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`node ${name} exited with ${code}:\n${node.lines.join('\n')}`));
        });
      });
      return node;
    });
    const nodes = await Promise.all(pending);
    return { nodes, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** SIGTERM (graceful shutdown), then SIGKILL if it lingers. */
async function stopNode(node: ServerNode): Promise<void> {
  const child = node.process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function readLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    rest += chunk;
    let i: number;
    while ((i = rest.indexOf('\n')) >= 0) {
      onLine(rest.slice(0, i));
      rest = rest.slice(i + 1);
    }
  });
}

/** The `msg` of each JSON log line. */
export function logMessages(node: ServerNode): string[] {
  return node.lines.flatMap((l) => {
    try {
      return [String((JSON.parse(l) as { msg?: unknown }).msg ?? '')];
    } catch {
      return [];
    }
  });
}
