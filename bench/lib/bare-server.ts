/**
 * The baselines, in a process of their own:
 *
 *   --mode fastify --routes <file.json>   a bare Fastify app answering each recorded URL with the exact bytes
 *                                          Folio answered (GET), or those bytes after parsing the JSON body (PUT)
 *   --mode stream --file <path>           bare node:http: GET /file streams the file, POST /upload writes the
 *                                          request body to <path>.upload and fsyncs it; POST /upload-batched
 *                                          does the same the way a tuned server can (see storeBatched)
 *
 *   node --import tsx bench/lib/bare-server.ts --port 1234 --mode fastify --routes routes.json
 */
import fs from 'node:fs';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import Fastify from 'fastify';

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

if (mode === 'fastify') {
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
  process.stderr.write('--mode fastify|stream\n');
  process.exit(2);
}
