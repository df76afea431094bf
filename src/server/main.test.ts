import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_PASSWORD } from './test/harness.js';

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

/** Starts `src/server/main.ts` as a real process on a free port; answers the process and its base URL. */
async function startServer(
  dataDir: string,
): Promise<{ child: ChildProcess; base: string; exited: Promise<number | null>; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      CMS_DATA_DIR: dataDir,
      CMS_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CMS_SEED: 'false',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', () => reject(new Error(`server exited early:\n${out}`)));
  });
  return { child, base, exited, output: () => out };
}

describe('main: a real server process', () => {
  it('finishes an in-flight upload on SIGTERM, exits 0, and the upload survives a restart', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-main-'));
    dirs.push(dataDir);
    const first = await startServer(dataDir);
    const { child, base, exited } = first;

    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);

    const boundary = 'folio-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\n` +
        'Content-Type: text/plain\r\n\r\n',
    );
    const content = Buffer.from('a slow upload that is still arriving when the server is told to stop\n'.repeat(50));
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const url = new URL(`${base}/cms/rest/assets/binary/Assets/inflight/slow.txt`);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: 'POST',
          headers: {
            authorization: ADMIN,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': head.length + content.length + tail.length,
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write(head);
      req.write(content.subarray(0, 100));
      // Stop the server while the request is half sent, then send the rest.
      setTimeout(() => {
        child.kill('SIGTERM');
        setTimeout(() => {
          req.write(content.subarray(100));
          req.end(tail);
        }, 300);
      }, 300);
    });

    const res = await response;
    expect(res.status, res.body).toBe(201);
    expect(await exited, first.output()).toBe(0);

    const again = await startServer(dataDir);
    const meta = await fetch(`${again.base}/cms/rest/assets/by-path/Assets/inflight/slow.txt`, {
      headers: { authorization: ADMIN },
    });
    expect(meta.status).toBe(200);
    await meta.arrayBuffer();
    const bin = await fetch(`${again.base}/cms/rest/assets/binary/Assets/inflight/slow.txt`, {
      headers: { authorization: ADMIN },
    });
    expect(Buffer.from(await bin.arrayBuffer()).equals(content)).toBe(true);
    again.child.kill('SIGINT');
    expect(await again.exited, again.output()).toBe(0);
  }, 90_000);

  it('on SIGINT, finishes a download in flight on a keep-alive connection, then closes it and exits 0', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-main-'));
    dirs.push(dataDir);
    const { child, base, exited, output } = await startServer(dataDir);
    // Bigger than the socket buffers, so the response is still being written when the signal comes.
    const content = Buffer.alloc(8 * 1024 * 1024, 'folio ');
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'text/plain' }), 'big.txt');
    const up = await fetch(`${base}/cms/rest/assets/binary/Assets/keepalive/big.txt`, {
      method: 'POST',
      headers: { authorization: ADMIN },
      body: form,
    });
    expect(up.status, await up.text()).toBe(201);

    const agent = new http.Agent({ keepAlive: true });
    const received = await new Promise<number>((resolve, reject) => {
      const req = http.get(
        `${base}/cms/rest/assets/binary/Assets/keepalive/big.txt`,
        { agent, headers: { authorization: ADMIN } },
        (res) => {
          res.pause();
          child.kill('SIGINT');
          let n = 0;
          setTimeout(() => {
            res.on('data', (c: Buffer) => (n += c.length));
            res.on('end', () => resolve(n));
            res.resume();
          }, 500);
        },
      );
      req.on('error', reject);
    });
    expect(received).toBe(content.length);
    // The agent keeps the connection open; the server must close it rather than wait out its keep-alive time.
    expect(await exited, output()).toBe(0);
    expect(output()).not.toMatch(/shutdown took too long/);
    agent.destroy();
  }, 90_000);
});
