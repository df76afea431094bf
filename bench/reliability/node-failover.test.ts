/**
 * Live events when a node goes away (issue 41): two built servers on one PostgreSQL database, CLIENTS event
 * streams open on each, WRITERS clients writing pages through both nodes. Node A is killed with SIGKILL under that
 * load; its streams reconnect to B with `Last-Event-ID`, and B keeps serving. Then A comes back, B is stopped with
 * SIGTERM (a restart): its streams must end cleanly, not hang, and reconnect to A. In the end every stream has
 * seen an event for every acknowledged write, none twice, in log order — no gap across either move.
 *
 * Needs PostgreSQL (several nodes share one database only there): `FOLIO_RELIABILITY_PG_URL`, or
 * `TEST_DATABASE_URL`; `npm test` passes its PostgreSQL URL. Skipped without one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../src/server/test/node-cluster.js';
import { ADMIN_BASIC } from '../lib/paths.js';
import { startFolio, type RunningProcess } from '../lib/server.js';
import { recordResult } from './results.js';
import { call, createTemplate, ok, report } from './support.js';

const PG_URL = process.env.FOLIO_RELIABILITY_PG_URL || process.env.TEST_DATABASE_URL;
const CLIENTS = 10;
const WRITERS = 4;
const LOAD_MS = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Node {
  name: string;
  dataDir: string;
  server: RunningProcess;
}

/** One acknowledged write: which page, and when its answer came. */
interface Ack {
  path: string;
  at: number;
}

/**
 * An event stream client as the app runs one: reads `change` frames, and when its stream ends or breaks,
 * reconnects to whichever node `target()` names with the last id it saw.
 */
class StreamClient {
  /** Change events by id: path and arrival time. */
  seen = new Map<number, { path: string; at: number }>();
  duplicates = 0;
  outOfOrder = 0;
  resets = 0;
  lastId: number | undefined;
  /** How each connection ended: 'clean' (the server ended the body), 'broken' (a reset or refused). */
  endings: ('clean' | 'broken')[] = [];
  reconnects = 0;
  connectedTo = '';
  private controller: AbortController | null = null;
  private stopped = false;
  private connected: Promise<void> | null = null;

  constructor(private target: () => Node | undefined) {}

  start(): Promise<void> {
    this.connected = new Promise<void>((resolve) => void this.loop(resolve));
    return this.connected;
  }

  private async loop(firstConnect: () => void) {
    let announced = false;
    while (!this.stopped) {
      const node = this.target();
      if (!node) {
        await sleep(100);
        continue;
      }
      this.controller = new AbortController();
      let ending: 'clean' | 'broken' = 'broken';
      try {
        const res = await fetch(`${node.server.url}/cms/rest/events`, {
          headers: {
            authorization: ADMIN_BASIC,
            ...(this.lastId !== undefined ? { 'last-event-id': String(this.lastId) } : {}),
          },
          signal: this.controller.signal,
        });
        if (res.status !== 200) throw new Error(`events: ${res.status}`);
        this.connectedTo = node.name;
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            ending = 'clean';
            break;
          }
          buffer += decoder.decode(value, { stream: true });
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            this.frame(buffer.slice(0, cut));
            buffer = buffer.slice(cut + 2);
            if (!announced) {
              announced = true;
              firstConnect();
            }
          }
        }
      } catch {
        ending = 'broken';
      }
      if (this.stopped) break;
      this.endings.push(ending);
      this.reconnects++;
      await sleep(50 + Math.random() * 200);
    }
  }

  private frame(text: string) {
    let id: number | undefined;
    let event = 'message';
    let data = '';
    for (const line of text.split('\n')) {
      if (line.startsWith('id:')) id = Number(line.slice(3).trim());
      else if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
    }
    if (event === 'reset') this.resets++;
    if (event !== 'change' || id === undefined) return;
    if (this.seen.has(id)) this.duplicates++;
    else if (this.lastId !== undefined && id < this.lastId) this.outOfOrder++;
    this.seen.set(id, { path: (JSON.parse(data) as { path: string }).path, at: Date.now() });
    this.lastId = Math.max(this.lastId ?? id, id);
  }

  /** Events seen per page path. */
  countsByPath(): Map<string, number> {
    const out = new Map<string, number>();
    for (const { path: p } of this.seen.values()) out.set(p, (out.get(p) ?? 0) + 1);
    return out;
  }

  stop() {
    this.stopped = true;
    this.controller?.abort();
  }
}

describe.skipIf(!PG_URL)('live events when a node is killed under load, and when one restarts', () => {
  let db: TestDatabase | undefined;
  const nodes: Node[] = [];
  const clients: StreamClient[] = [];

  afterAll(async () => {
    for (const c of clients) c.stop();
    await Promise.all(nodes.map((n) => n.server.kill9().catch(() => {})));
    for (const n of nodes) fs.rmSync(n.dataDir, { recursive: true, force: true });
    await db?.drop();
  }, 60_000);

  async function start(name: string, dataDir?: string): Promise<Node> {
    const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `folio-failover-${name}-`));
    const node = { name, dataDir: dir, server: await startFolio({ dataDir: dir, databaseUrl: db!.url }) };
    nodes.push(node);
    return node;
  }

  it('every stream sees every acknowledged write once, across a kill -9 and a SIGTERM restart', async () => {
    db = await createTestDatabase(PG_URL!);
    let a: Node | undefined = await start('A');
    await createTemplate(a.server.url);
    ok(
      await call(a.server.url, 'PUT', '/cms/rest/folders/by-path/fo', {
        siteName: 'fo',
        sectionInfo: { displayTitle: 'Failover', templateName: 'rel-article', targetWindow: '_self', navClass: '' },
      }),
      'site',
    );
    let b: Node | undefined = await start('B');

    // Half the streams on each node; when their node is gone they move to the other one.
    const other = (n: 'A' | 'B') => () => {
      const want = n === 'A' ? (a ?? b) : (b ?? a);
      return want;
    };
    for (let i = 0; i < CLIENTS * 2; i++) clients.push(new StreamClient(other(i % 2 ? 'B' : 'A')));
    await Promise.all(clients.map((c) => c.start()));

    const acks: Ack[] = [];
    const sent = new Map<string, number>();
    const failedCalls: string[] = [];
    let writing = true;
    /** A writer: pages of its own, each created then changed, through A and B in turn (B only once A is gone). */
    async function writer(w: number) {
      for (let n = 0; writing; n++) {
        const p = `fo/w${w}-p${n % 5}`;
        const node = (n % 2 === 0 ? a : b) ?? b ?? a;
        if (!node) break;
        sent.set(p, (sent.get(p) ?? 0) + 1);
        try {
          const r = await call(node.server.url, 'PUT', `/cms/rest/pages/by-path/${p}`, {
            templateName: 'rel-article',
            displayName: `change ${n}`,
          });
          if (r.status === 200 || r.status === 201) acks.push({ path: p, at: Date.now() });
          else failedCalls.push(`${node.name} ${r.status}`);
        } catch (err) {
          failedCalls.push(`${node.name} ${(err as Error).message}`);
        }
      }
    }

    // Load through both nodes, then A is killed while the writers keep going (on B).
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    await sleep(LOAD_MS);
    const killedA = a.server.kill9();
    a = undefined;
    await killedA;
    const acksBeforeKill = acks.length;
    await sleep(LOAD_MS);
    writing = false;
    await Promise.all(writers);

    /** Waits until every stream has seen as many events per page as that page had acknowledged writes. */
    async function everyStreamCaughtUp(what: string) {
      const want = new Map<string, number>();
      for (const { path: p } of acks) want.set(p, (want.get(p) ?? 0) + 1);
      const deadline = Date.now() + 30_000;
      for (;;) {
        const behind = clients
          .map((c, i) => {
            const have = c.countsByPath();
            const missing = [...want].filter(([p, n]) => (have.get(p) ?? 0) < n);
            return missing.length ? `stream ${i} (on ${c.connectedTo}): ${missing.length} pages behind` : null;
          })
          .filter(Boolean);
        if (!behind.length) return;
        if (Date.now() > deadline) throw new Error(`${what}: ${behind.join('; ')}`);
        await sleep(100);
      }
    }
    await everyStreamCaughtUp('after A was killed');
    expect(clients.every((c) => c.connectedTo === 'B')).toBe(true);

    // A comes back on its data dir; B restarts (SIGTERM): its streams end cleanly and move to A.
    a = await start('A2', nodes[0]!.dataDir);
    const endingsBefore = clients.map((c) => c.endings.length);
    const writes = (async () => {
      for (let n = 0; n < 30; n++) {
        const r = await call(a!.server.url, 'PUT', `/cms/rest/pages/by-path/fo/restart-${n % 3}`, {
          templateName: 'rel-article',
          displayName: `after restart ${n}`,
        });
        if (r.status === 200 || r.status === 201) acks.push({ path: `fo/restart-${n % 3}`, at: Date.now() });
        await sleep(20);
      }
    })();
    const stoppedB = b.server.stop(10_000);
    b = undefined;
    await stoppedB;
    await writes;
    await everyStreamCaughtUp('after B restarted');
    const restartEndings = clients.map((c, i) => c.endings.slice(endingsBefore[i]));
    expect(clients.every((c) => c.connectedTo === 'A2')).toBe(true);

    const totals = {
      streams: clients.length,
      writesSent: [...sent.values()].reduce((s, n) => s + n, 0) + 30,
      writesAcknowledged: acks.length,
      acknowledgedBeforeKill: acksBeforeKill,
      failedCalls: failedCalls.length,
      eventsPerStream: clients.map((c) => c.seen.size),
      duplicates: clients.reduce((s, c) => s + c.duplicates, 0),
      outOfOrder: clients.reduce((s, c) => s + c.outOfOrder, 0),
      resets: clients.reduce((s, c) => s + c.resets, 0),
      reconnects: clients.reduce((s, c) => s + c.reconnects, 0),
      restartEndings: restartEndings
        .flat()
        .reduce<Record<string, number>>((m, e) => ({ ...m, [e]: (m[e] ?? 0) + 1 }), {}),
    };
    report(`node failover: ${JSON.stringify(totals)}`);
    recordResult('nodeFailover', totals);

    expect(acksBeforeKill).toBeGreaterThan(0);
    expect(acks.length).toBeGreaterThan(acksBeforeKill);
    expect(totals.duplicates).toBe(0);
    expect(totals.outOfOrder).toBe(0);
    expect(totals.resets).toBe(0);
    // A SIGTERM ends each stream of B by ending its body: every client saw a clean end, not a reset or a hang.
    expect(restartEndings.every((e) => e.length >= 1 && e[0] === 'clean')).toBe(true);
  });
});
