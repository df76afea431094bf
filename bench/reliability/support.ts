import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/server/db/database.js';
import { ADMIN_BASIC, basic } from '../lib/paths.js';
import { startFolio, type RunningProcess } from '../lib/server.js';

export type Role = 'Viewer' | 'Contributor' | 'Editor' | 'Admin';
export const ROLES: Role[] = ['Viewer', 'Contributor', 'Editor', 'Admin'];
/** `none` sends no credentials. */
export type Who = 'none' | Role;
export const EVERYONE: Who[] = ['none', ...ROLES];

export interface Harness {
  server: RunningProcess;
  dataDir: string;
  url: string;
  port: number;
  /** Authorization header per role (`none`: undefined). */
  auth: Record<Who, string | undefined>;
  /** Stops the server and removes the data dir. */
  close(): Promise<void>;
}

/** The built server on a fresh data dir, with one user per role. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-reliability-'));
  const server = await startFolio({ dataDir, env });
  const auth: Record<Who, string | undefined> = { none: undefined, Admin: ADMIN_BASIC } as Record<
    Who,
    string | undefined
  >;
  for (const role of ROLES.filter((r) => r !== 'Admin')) {
    const name = role.toLowerCase();
    const password = `${name}-password-1`;
    const r = await call(server.url, 'PUT', `/cms/rest/users/${name}`, { role, password });
    if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${r.text}`);
    auth[role] = basic(name, password);
  }
  return {
    server,
    dataDir,
    url: server.url,
    port: server.port,
    auth,
    async close() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json<T = any>(): T;
}

/** A JSON request (admin unless `auth` says otherwise; `auth: null` sends none). */
export async function call(
  baseUrl: string,
  method: string,
  url: string,
  body?: unknown,
  opts: { auth?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  const auth = opts.auth === undefined ? ADMIN_BASIC : opts.auth;
  if (auth) headers.authorization = auth;
  let payload: BodyInit | undefined;
  // (a Buffer is a valid fetch body; the DOM typings of BodyInit do not say so)
  if (Buffer.isBuffer(body)) payload = body as unknown as BodyInit;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${url}`, { method, headers, body: payload });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

/** Throws unless the answer is 2xx (setup steps). */
export function ok(r: Answer, what: string): Answer {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 500)}`);
  return r;
}

export interface RawAnswer {
  /** null when the server closed the connection without an answer. */
  status: number | null;
  head: string;
  body: Buffer;
  timedOut: boolean;
}

/**
 * Sends bytes exactly as given on a fresh TCP connection (nothing normalised: paths with control characters,
 * broken percent-encoding, lying headers) and reads the answer until the server closes the connection.
 */
export function rawRequest(
  port: number,
  bytes: Buffer,
  opts: { timeoutMs?: number; halfClose?: boolean } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, opts.timeoutMs ?? 10_000);
    socket.on('connect', () => {
      socket.write(bytes);
      if (opts.halfClose) socket.end();
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    const finish = () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const head = (split >= 0 ? all.subarray(0, split) : all).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      resolve({
        status: m ? Number(m[1]) : null,
        head,
        body: split >= 0 ? all.subarray(split + 4) : Buffer.alloc(0),
        timedOut,
      });
    };
    socket.on('close', finish);
    socket.on('error', () => {
      /* answered through close */
    });
  });
}

/** An HTTP/1.1 request as bytes (`Connection: close`; Content-Length from the body unless given). */
export function httpBytes(req: {
  method: string;
  path: string | Buffer;
  headers?: Record<string, string>;
  body?: Buffer | string;
  port: number;
}): Buffer {
  const body = req.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
  const headers: Record<string, string> = { host: `127.0.0.1:${req.port}`, connection: 'close', ...req.headers };
  if (req.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
    headers['content-length'] = String(body.length);
  }
  const head = Buffer.concat([
    Buffer.from(`${req.method} `, 'latin1'),
    Buffer.isBuffer(req.path) ? req.path : Buffer.from(req.path, 'latin1'),
    Buffer.from(
      ` HTTP/1.1\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}\r\n`,
      'latin1',
    ),
  ]);
  return Buffer.concat([head, body]);
}

/** `multipart/form-data` with text fields and one file part. */
export function multipart(
  fields: Record<string, string>,
  file?: { field?: string; name: string; type: string; data: Buffer },
  boundary = `----folio-rel-${Math.random().toString(16).slice(2)}`,
) {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads a file as admin (or `auth`). */
export function upload(
  baseUrl: string,
  assetPath: string,
  file: { name: string; type: string; data: Buffer },
  auth?: string | null,
) {
  const mp = multipart({}, file);
  return call(baseUrl, 'POST', `/cms/rest/assets/binary/${assetPath}`, mp.body, {
    auth,
    headers: { 'content-type': mp.contentType },
  });
}

/** The data dir's database (or the PostgreSQL one at `databaseUrl`), opened directly (the server must be stopped, or only read). */
export function openDataDir(dataDir: string, databaseUrl?: string): Database {
  return openDatabase({ sqlitePath: path.join(dataDir, 'folio.db'), databaseUrl });
}

/** Where the filesystem blob store keeps a blob. */
export function blobPath(dataDir: string, key: string): string {
  return path.join(dataDir, 'blobs', key.slice(0, 2), key.slice(2, 4), key);
}

/** Every blob key in the data dir (files, not temp parts). */
export function blobKeys(dataDir: string): string[] {
  const root = path.join(dataDir, 'blobs');
  const out: string[] = [];
  for (const a of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    if (!/^[0-9a-f]{2}$/.test(a)) continue;
    for (const b of fs.readdirSync(path.join(root, a))) {
      for (const k of fs.readdirSync(path.join(root, a, b))) out.push(k);
    }
  }
  return out;
}

/** A template with a title, a body and a sidebar, for pages of the suites. */
export async function createTemplate(baseUrl: string, name = 'rel-article') {
  ok(
    await call(baseUrl, 'PUT', `/cms/rest/templates/${name}`, {
      label: 'Reliability article',
      description: 'Title, body and sidebar between a header and a footer.',
      regions: [
        { name: 'header', editable: false },
        { name: 'title', editable: true },
        { name: 'body', editable: true },
        { name: 'sidebar', editable: true },
      ],
    }),
    'template',
  );
  return name;
}

/** Percent-encodes each segment of a path. */
export const enc = (p: string) => p.split('/').map(encodeURIComponent).join('/');

/** Counts values: `{ '200': 12, '404': 3 }`. */
export function tally(values: (string | number)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[String(v)] = (out[String(v)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort());
}

/** Writes a line of the suite's report (kept short: the suite is meant to be read in CI logs). */
export function report(line: string) {
  process.stdout.write(`  [reliability] ${line}\n`);
}
