/**
 * The baselines, in a process of their own:
 *
 *   --mode fastify --routes <file.json>   a bare Fastify app answering each recorded URL with the exact bytes
 *                                          Folio answered (GET), or those bytes after parsing the JSON body (PUT)
 *   --mode sqlite --routes <file.json> --db <path>
 *                                          the database anchor on SQLite (better-sqlite3, WAL, synchronous=FULL):
 *                                          the recorded bytes of each URL are one row of an indexed table; GET
 *                                          answers them from one SELECT, PUT parses the JSON body and commits one
 *                                          UPDATE of that row (autocommit), then answers the recorded bytes
 *   --mode postgres --routes <file.json> --database-url <url>
 *                                          the same on PostgreSQL (node-postgres, a pool of 10, one table of its
 *                                          own in that database)
 *   --mode stream --file <path>           bare node:http: GET /file streams the file, POST /upload writes the
 *                                          request body to <path>.upload and fsyncs it; POST /upload-batched
 *                                          does the same the way a tuned server can (see storeBatched)
 *
 *   node --import tsx bench/lib/bare-server.ts --port 1234 --mode fastify --routes routes.json
 */
import fs from 'node:fs';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import SQLite from '../../src/server/db/sqlite-driver.js';

export interface RecordedResponse {
  method: 'GET' | 'PUT';
  /** Path with query string, exactly as the client sends it. */
  url: string;
  contentType: string;
  etag?: string;
  body: string;
}

const MiB = 1024 * 1024;

/**
 * The request body written durably with no per-chunk work at all: chunks gathered into 1 MiB positional
 * `writev`s, 4 in flight, `fdatasync` in the background every 64 MiB, `fsync` at the end. The ceiling of
 * network + disk for a server that does what Folio's file store does minus parsing, sniffing and hashing.
 */
async function storeBatched(req: http.IncomingMessage, target: string): Promise<void> {
  const fh = await fs.promises.open(target, 'w');
  try {
    const writing = new Set<Promise<unknown>>();
    let batch: Buffer[] = [];
    let bytes = 0;
    let position = 0;
    let unflushed = 0;
    let flushing: Promise<unknown> = Promise.resolve();
    const submit = () => {
      const expected = bytes;
      const p: Promise<unknown> = fh
        .writev(batch, position)
        .then(({ bytesWritten }) => {
          if (bytesWritten !== expected) throw new Error(`short write: ${bytesWritten} of ${expected} bytes`);
        })
        .finally(() => writing.delete(p));
      writing.add(p);
      position += bytes;
      unflushed += bytes;
      batch = [];
      bytes = 0;
      if (unflushed >= 64 * MiB) {
        unflushed = 0;
        flushing = flushing.then(() => fh.datasync());
      }
    };
    for await (const chunk of req) {
      batch.push(chunk as Buffer);
      bytes += (chunk as Buffer).length;
      if (bytes >= MiB) {
        submit();
        while (writing.size >= 4) await Promise.race(writing);
      }
    }
    if (bytes > 0) submit();
    await Promise.all(writing);
    await flushing;
    await fh.sync();
  } finally {
    await fh.close();
  }
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
}

const port = Number(arg('port'));
const mode = arg('mode');

/** What a database anchor does per request: one indexed read of a row, or one committed UPDATE of it. */
interface AnchorStore {
  read(url: string): Promise<{ body: string; etag: string | null; content_type: string } | undefined>;
  /** Commits one UPDATE of the row of `url`; false when there is none. */
  write(url: string, value: string): Promise<boolean>;
}

const ANCHOR_TABLE = 'bench_anchor_rows';

function sqliteAnchor(file: string, recorded: RecordedResponse[]): AnchorStore {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    `create table if not exists ${ANCHOR_TABLE} (url text primary key, body text not null, etag text, ` +
      `content_type text not null, edited text)`,
  );
  const insert = db.prepare(
    `insert or replace into ${ANCHOR_TABLE} (url, body, etag, content_type) values (?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (const r of recorded) if (r.method === 'GET') insert.run(r.url, r.body, r.etag ?? null, r.contentType);
  })();
  const select = db.prepare(`select body, etag, content_type from ${ANCHOR_TABLE} where url = ?`);
  const update = db.prepare(`update ${ANCHOR_TABLE} set edited = ? where url = ?`);
  return {
    read: async (url) => select.get(url) as Awaited<ReturnType<AnchorStore['read']>>,
    write: async (url, value) => update.run(value, url).changes === 1,
  };
}

async function postgresAnchor(url: string, recorded: RecordedResponse[]): Promise<AnchorStore> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  await pool.query(
    `create table if not exists ${ANCHOR_TABLE} (url text primary key, body text not null, etag text, ` +
      `content_type text not null, edited text)`,
  );
  for (const r of recorded) {
    if (r.method !== 'GET') continue;
    await pool.query(
      `insert into ${ANCHOR_TABLE} (url, body, etag, content_type) values ($1, $2, $3, $4) ` +
        `on conflict (url) do update set body = excluded.body, etag = excluded.etag`,
      [r.url, r.body, r.etag ?? null, r.contentType],
    );
  }
  // Named statements: prepared once per connection, as Folio's own queries are.
  return {
    async read(key) {
      const r = await pool.query<{ body: string; etag: string | null; content_type: string }>({
        name: 'anchor-read',
        text: `select body, etag, content_type from ${ANCHOR_TABLE} where url = $1`,
        values: [key],
      });
      return r.rows[0];
    },
    async write(key, value) {
      const r = await pool.query({
        name: 'anchor-write',
        text: `update ${ANCHOR_TABLE} set edited = $1 where url = $2`,
        values: [value, key],
      });
      return r.rowCount === 1;
    },
  };
}

/** GET answers a row read by URL; PUT parses the body, commits one UPDATE and answers the recorded PUT bytes. */
function anchorRoutes(app: FastifyInstance, store: AnchorStore, recorded: RecordedResponse[]) {
  const puts = new Map(recorded.filter((r) => r.method === 'PUT').map((r) => [r.url, r]));
  app.get('/*', async (request, reply) => {
    const row = await store.read(request.url);
    if (!row) return reply.code(404).send({ error: 'not recorded' });
    if (row.etag) void reply.header('etag', row.etag);
    return reply.type(row.content_type).send(row.body);
  });
  app.put('/*', async (request, reply) => {
    const r = puts.get(request.url);
    const body = request.body as { displayName?: unknown } | null;
    if (!r || typeof body !== 'object' || body === null) return reply.code(404).send({ error: 'not recorded' });
    // What changed: a page's display name, or any other body as it came (an asset's fields).
    const edited = typeof body.displayName === 'string' ? body.displayName : JSON.stringify(body);
    if (!(await store.write(request.url, edited))) {
      return reply.code(404).send({ error: 'no row' });
    }
    if (r.etag) void reply.header('etag', r.etag);
    return reply.type(r.contentType).send(r.body);
  });
}

if (mode === 'sqlite' || mode === 'postgres') {
  const recorded = JSON.parse(fs.readFileSync(arg('routes')!, 'utf8')) as RecordedResponse[];
  const store =
    mode === 'sqlite' ? sqliteAnchor(arg('db')!, recorded) : await postgresAnchor(arg('database-url')!, recorded);
  const app = Fastify({ logger: false, routerOptions: { maxParamLength: 2000 } });
  app.get('/healthz', async () => ({ status: 'ok' }));
  anchorRoutes(app, store, recorded);
  await app.listen({ port, host: '127.0.0.1' });
} else if (mode === 'fastify') {
  const recorded = JSON.parse(fs.readFileSync(arg('routes')!, 'utf8')) as RecordedResponse[];
  const byKey = new Map(recorded.map((r) => [`${r.method} ${r.url}`, r]));
  const app = Fastify({ logger: false, routerOptions: { maxParamLength: 2000 } });
  const answer = (method: string, url: string) => byKey.get(`${method} ${url}`);
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/*', async (request, reply) => {
    const r = answer('GET', request.url);
    if (!r) return reply.code(404).send({ error: 'not recorded' });
    if (r.etag) void reply.header('etag', r.etag);
    return reply.type(r.contentType).send(r.body);
  });
  app.put('/*', async (request, reply) => {
    const r = answer('PUT', request.url);
    // The body is parsed like Folio parses it, and then the recorded answer is sent.
    if (!r || typeof request.body !== 'object') return reply.code(404).send({ error: 'not recorded' });
    if (r.etag) void reply.header('etag', r.etag);
    return reply.type(r.contentType).send(r.body);
  });
  await app.listen({ port, host: '127.0.0.1' });
} else if (mode === 'stream') {
  const file = arg('file')!;
  const server = http.createServer((req, res) => {
    if (req.url === '/healthz') {
      res.end('ok');
    } else if (req.method === 'GET' && req.url === '/file') {
      const size = fs.statSync(file).size;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
      fs.createReadStream(file).pipe(res);
    } else if (req.method === 'POST' && req.url === '/upload') {
      const target = `${file}.upload`;
      const out = fs.createWriteStream(target);
      pipeline(req, out)
        .then(() => {
          const fd = fs.openSync(target, 'r+');
          fs.fsyncSync(fd);
          fs.closeSync(fd);
          fs.rmSync(target, { force: true });
          res.writeHead(201).end('stored');
        })
        .catch((err: unknown) => res.writeHead(500).end(String(err)));
    } else if (req.method === 'POST' && req.url === '/upload-batched') {
      const target = `${file}.upload`;
      storeBatched(req, target)
        .then(() => {
          fs.rmSync(target, { force: true });
          res.writeHead(201).end('stored');
        })
        .catch((err: unknown) => res.writeHead(500).end(String(err)));
    } else {
      res.writeHead(404).end();
    }
  });
  server.listen(port, '127.0.0.1');
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  process.stderr.write('--mode fastify|sqlite|postgres|stream\n');
  process.exit(2);
}
