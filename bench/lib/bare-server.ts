/**
 * The baselines, in a process of their own:
 *
 *   --mode fastify --routes <file.json>   a bare Fastify app answering each recorded URL with the exact bytes
 *                                          Folio answered (GET), or those bytes after parsing the JSON body (PUT)
 *   --mode stream --file <path>           bare node:http: GET /file streams the file, POST /upload writes the
 *                                          request body to <path>.upload and fsyncs it
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
