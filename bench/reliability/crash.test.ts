/**
 * Crash safety: ROUNDS times, the server is killed with SIGKILL while clients write pages and upload files.
 * After every kill: the database passes its integrity check, every write acknowledged with a 2xx is there
 * (pages hold at least the last acknowledged change), and no asset points at a missing or partial blob. At the
 * end, two passes of the orphan sweep remove exactly the unreferenced blobs, and every acknowledged write is still
 * there.
 *
 * History (modules/revisions) is checked the same way: a revision is written with its write or not at all. With
 * the server down, every page and asset row has exactly revisions 1..`revision` (none missing, none beyond) and an
 * asset's newest revision names its file. After the restart, through the API, each page's revisions hold exactly
 * its committed changes in order — the acknowledged ones and an interrupted one the page turned out to hold,
 * nothing else — and the newest answers byte for byte what the page's GET does; each upload has one revision,
 * its GET's.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../src/server/test/node-cluster.js';
import { FsBlobStore } from '../../src/server/blobs/fs-blob-store.js';
import { sweepOrphanBlobs } from '../../src/server/blobs/orphan-sweep.js';
import type { DB } from '../../src/server/db/schema.js';
import { assetsRepository } from '../../src/server/modules/assets/assets.repository.js';
import { ADMIN_BASIC } from '../lib/paths.js';
import { startFolio, type RunningProcess } from '../lib/server.js';
import { recordResult } from './results.js';
import { blobKeys, blobPath, call, createTemplate, ok, openDataDir, report, tally, upload } from './support.js';

/**
 * The engines it runs on: SQLite (`CRASH_ROUNDS` kills, 50), and PostgreSQL on a fresh database of the server at
 * `CRASH_PG_URL` or `FOLIO_RELIABILITY_PG_URL` (`npm test` sets the latter when one answers; `CRASH_PG_ROUNDS`
 * kills, 15: each restart there also waits for the pool). Blobs stay in the data dir on both.
 */
const PG_SERVER = process.env.CRASH_PG_URL || process.env.FOLIO_RELIABILITY_PG_URL;
const ENGINES: { engine: string; rounds: number; pgUrl?: string }[] = [
  { engine: 'SQLite', rounds: Number(process.env.CRASH_ROUNDS ?? 50) },
  ...(PG_SERVER ? [{ engine: 'PostgreSQL', rounds: Number(process.env.CRASH_PG_ROUNDS ?? 15), pgUrl: PG_SERVER }] : []),
];
const PAGE_WRITERS = 4;
const UPLOADERS = 2;

interface PageState {
  /** Highest change number acknowledged with a 2xx, and the highest sent. */
  acked: number;
  sent: number;
  /** The round that last wrote it. */
  round: number;
  /** The changes known to be committed, in order: the acknowledged ones and interrupted ones found stored. */
  committed: number[];
  /** Revisions 1..checked were read and matched `committed`. */
  checked: number;
}
interface UploadState {
  path: string;
  size: number;
  sha256: string;
  image: boolean;
  round: number;
  /** Its revision was checked. */
  revisionChecked?: boolean;
}

/**
 * Problems of the history in the database: a page or asset row whose revisions are not exactly 1..`revision`
 * (one missing: a write committed without its revision; one beyond: a revision without its write), an asset whose
 * newest revision names another file, and revisions of items no page or asset row holds.
 */
async function revisionProblems(db: Kysely<DB>): Promise<{ rows: number; problems: string[] }> {
  const problems: string[] = [];
  let rows = 0;
  for (const table of ['pages', 'assets'] as const) {
    const file =
      table === 'assets' ? sql`, a.blob_key, a.sha256, newest.blob_key as rev_blob, newest.sha256 as rev_sha` : sql``;
    const { rows: found } = await sql<{
      node_id: string;
      revision: number | string;
      n: number | string;
      top: number | string | null;
      low: number | string | null;
      blob_key?: string | null;
      sha256?: string | null;
      rev_blob?: string | null;
      rev_sha?: string | null;
    }>`select a.node_id, a.revision, count(r.revision) as n, max(r.revision) as top, min(r.revision) as low ${file}
      from ${sql.table(table)} a
      left join revisions r on r.item_id = a.node_id
      left join revisions newest on newest.item_id = a.node_id and newest.revision = a.revision
      group by a.node_id, a.revision${table === 'assets' ? sql`, a.blob_key, a.sha256, newest.blob_key, newest.sha256` : sql``}`.execute(
      db,
    );
    rows += found.length;
    for (const row of found) {
      const rev = Number(row.revision);
      const [n, top, low] = [Number(row.n), Number(row.top ?? 0), Number(row.low ?? 1)];
      if (n !== rev || top !== rev || low !== 1) {
        problems.push(`${table} ${row.node_id} at revision ${rev} has ${n} revision(s), ${low}..${top}`);
      } else if (table === 'assets' && rev > 0 && (row.rev_blob !== row.blob_key || row.rev_sha !== row.sha256)) {
        problems.push(
          `asset ${row.node_id}: newest revision ${rev} names blob ${row.rev_blob}, the row ${row.blob_key}`,
        );
      }
    }
  }
  const { rows: stray } = await sql<{ n: number | string }>`select count(*) as n from revisions r
    where not exists (select 1 from pages p where p.node_id = r.item_id)
      and not exists (select 1 from assets a where a.node_id = r.item_id)`.execute(db);
  if (Number(stray[0]?.n ?? 0)) problems.push(`${stray[0]!.n} revision(s) of no page or asset`);
  return { rows, problems };
}

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(ENGINES)(
  'crash safety ($engine): $rounds rounds of kill -9 during writes',
  ({ rounds: ROUNDS, pgUrl: PG_URL }) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-crash-'));
    let server: RunningProcess | undefined;
    let pgDb: TestDatabase | undefined;
    const start = () => startFolio({ dataDir, databaseUrl: pgDb?.url });
    const openDb = () => openDataDir(dataDir, pgDb?.url);

    afterAll(async () => {
      await server?.kill9();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('keeps every acknowledged write and never points an asset at a missing or partial blob', async () => {
      const pages = new Map<string, PageState>();
      const uploads: UploadState[] = [];
      const images = await Promise.all(
        [40, 300, 900].map((w) =>
          sharp({ create: { width: w, height: Math.round(w * 0.75), channels: 3, background: '#0369a1' } })
            .png()
            .toBuffer(),
        ),
      );
      const stats = {
        pageWrites: 0,
        pageAcks: 0,
        uploadsSent: 0,
        uploadAcks: 0,
        failedCalls: 0,
        startupMs: [] as number[],
        /** Revisions read back through `?revision=N` and matched; interrupted writes found committed. */
        revisionsRead: 0,
        interruptedCommitted: 0,
        /** Rows whose revision numbering was checked in the database after the kills (summed over rounds). */
        rowsRevisionChecked: 0,
      };
      const problems: string[] = [];
      const orphanCounts: number[] = [];

      const changeOf = (json: string) =>
        Number(/^change (\d+)$/.exec((JSON.parse(json) as { displayName: string }).displayName)?.[1] ?? -1);

      /** The revision numbers of an item, newest first, every page of the list. */
      async function revisionNumbers(url: string, kind: 'pages' | 'assets', p: string): Promise<number[] | string> {
        const out: number[] = [];
        let cursor: string | null = null;
        do {
          const q: string = `?limit=100${cursor ? `&cursor=${cursor}` : ''}`;
          const r = await call(url, 'GET', `/cms/rest/${kind}/revisions/${p}${q}`);
          if (r.status !== 200) return `revision list → ${r.status}`;
          const list = r.json<{ items: { revision: number }[]; next: string | null }>();
          out.push(...list.items.map((i) => i.revision));
          cursor = list.next;
        } while (cursor);
        return out;
      }

      /**
       * The item's revisions are `expected` newest first, and the newest answers what its GET (`current`) did.
       * `read` revisions below the newest are read and handed to `each`.
       */
      async function checkRevisions(
        url: string,
        round: number,
        kind: 'pages' | 'assets',
        p: string,
        current: { text: string; etag: string | null },
        expected: number,
        each?: { from: number; check: (n: number, json: string) => void },
      ) {
        const numbers = await revisionNumbers(url, kind, p);
        const want = Array.from({ length: expected }, (_, i) => expected - i);
        if (typeof numbers === 'string' || numbers.join() !== want.join()) {
          const got =
            typeof numbers === 'string' ? numbers : `[${numbers.slice(0, 8).join(', ')}…] (${numbers.length})`;
          problems.push(`round ${round}: ${p} has revisions ${got}; expected ${expected} (${expected}..1)`);
          return;
        }
        for (let n = each?.from ?? expected; n <= expected; n++) {
          const r = await call(url, 'GET', `/cms/rest/${kind}/by-path/${p}?revision=${n}`);
          stats.revisionsRead++;
          if (r.status !== 200) {
            problems.push(`round ${round}: ${p} revision ${n} → ${r.status}`);
            return;
          }
          each?.check(n, r.text);
          if (n === expected && (r.text !== current.text || r.headers.get('etag') !== current.etag)) {
            problems.push(
              `round ${round}: ${p}: newest revision ${n} (${r.headers.get('etag')}) is not what a GET answers ` +
                `(${current.etag}): ${r.text.slice(0, 120)} ≠ ${current.text.slice(0, 120)}`,
            );
          }
        }
      }

      /**
       * Every acknowledged page holds at least its last acknowledged change, and its revisions are its committed
       * changes; uploads `which` download whole, with one revision.
       */
      async function verify(url: string, round: number, which: (item: { round: number }) => boolean) {
        for (const [p, state] of pages) {
          if (!which(state)) continue;
          const r = await call(url, 'GET', `/cms/rest/pages/by-path/${p}`);
          if (state.acked === 0 && r.status === 404) continue; // never acknowledged, never stored
          if (r.status !== 200) {
            problems.push(`round ${round}: ${p} → ${r.status} (acknowledged change ${state.acked})`);
            continue;
          }
          const n = changeOf(r.text);
          if (n < state.acked || n > state.sent) {
            problems.push(`round ${round}: ${p} holds change ${n}; acknowledged ${state.acked}, sent ${state.sent}`);
          }
          state.acked = Math.max(state.acked, n);
          // A write the kill interrupted after its commit: the page holds it, so it is a committed change.
          const last = state.committed[state.committed.length - 1] ?? 0;
          if (n > last) {
            state.committed.push(n);
            stats.interruptedCommitted++;
          }
          const committed = state.committed;
          await checkRevisions(
            url,
            round,
            'pages',
            p,
            { text: r.text, etag: r.headers.get('etag') },
            committed.length,
            {
              from: state.checked + 1,
              check: (k, json) => {
                const c = changeOf(json);
                if (c !== committed[k - 1]) {
                  problems.push(`round ${round}: ${p} revision ${k} holds change ${c}; committed ${committed[k - 1]}`);
                }
              },
            },
          );
          state.checked = committed.length;
        }
        for (const u of uploads.filter(which)) {
          const r = await fetch(`${url}/cms/rest/assets/binary/${u.path}`, { headers: { authorization: ADMIN_BASIC } });
          const body = Buffer.from(await r.arrayBuffer());
          if (r.status !== 200 || body.length !== u.size || sha(body) !== u.sha256) {
            problems.push(`round ${round}: ${u.path} → ${r.status}, ${body.length} bytes (expected ${u.size})`);
          }
          if (u.revisionChecked) continue;
          u.revisionChecked = true;
          const meta = await call(url, 'GET', `/cms/rest/assets/by-path/${u.path}`);
          if (meta.status !== 200) {
            problems.push(`round ${round}: ${u.path} metadata → ${meta.status}`);
            continue;
          }
          // An upload is the asset's one write: revision 1, its GET.
          await checkRevisions(url, round, 'assets', u.path, { text: meta.text, etag: meta.headers.get('etag') }, 1);
        }
      }

      if (PG_URL) pgDb = await createTestDatabase(PG_URL);
      for (let round = 1; round <= ROUNDS; round++) {
        const t0 = Date.now();
        server = await start();
        stats.startupMs.push(Date.now() - t0);
        const url = server.url;
        if (round === 1) {
          await createTemplate(url);
          ok(
            await call(url, 'PUT', '/cms/rest/folders/by-path/crash', {
              siteName: 'crash',
              sectionInfo: { displayTitle: 'Crash', templateName: 'rel-article', targetWindow: '_self', navClass: '' },
            }),
            'site',
          );
          for (let w = 0; w < PAGE_WRITERS; w++)
            ok(await call(url, 'PUT', `/cms/rest/folders/by-path/crash/w${w}`, {}), 'folder');
        }

        // What the previous round acknowledged is all there, as acknowledged.
        await verify(url, round, (item) => item.round === round - 1);

        // Clients write until the kill.
        let running = true;
        const writer = async (w: number) => {
          let n = 0;
          while (running) {
            const own = [...pages.keys()].filter((p) => p.startsWith(`crash/w${w}/`));
            const p =
              own.length === 0 || Math.random() < 0.3
                ? `crash/w${w}/r${round}-${n++}`
                : own[Math.floor(Math.random() * own.length)]!;
            const state = pages.get(p) ?? { acked: 0, sent: 0, round, committed: [], checked: 0 };
            state.round = round;
            pages.set(p, state);
            const change = state.sent + 1;
            state.sent = change;
            stats.pageWrites++;
            try {
              const r = await call(url, 'PUT', `/cms/rest/pages/by-path/${p}`, {
                templateName: 'rel-article',
                displayName: `change ${change}`,
              });
              if (r.status === 200 || r.status === 201) {
                state.acked = Math.max(state.acked, change);
                state.committed.push(change);
                stats.pageAcks++;
              } else if (running) problems.push(`round ${round}: PUT ${p} → ${r.status} ${r.text.slice(0, 200)}`);
            } catch {
              stats.failedCalls++;
              return; // the server is gone
            }
          }
        };
        const uploader = async (u: number) => {
          let n = 0;
          while (running) {
            const image = Math.random() < 0.3;
            const data = image ? images[n % images.length]! : randomBytes(1024 + Math.floor(Math.random() * 1_500_000));
            const p = `Assets/crash/r${round}/u${u}-${n++}.${image ? 'png' : 'bin'}`;
            stats.uploadsSent++;
            try {
              const r = await upload(url, p, { name: 'x', type: 'application/octet-stream', data });
              if (r.status === 201) {
                uploads.push({ path: p, size: data.length, sha256: sha(data), image, round });
                stats.uploadAcks++;
              } else if (running) problems.push(`round ${round}: upload ${p} → ${r.status} ${r.text.slice(0, 200)}`);
            } catch {
              stats.failedCalls++;
              return;
            }
          }
        };
        const clients = [
          ...Array.from({ length: PAGE_WRITERS }, (_, w) => writer(w)),
          ...Array.from({ length: UPLOADERS }, (_, u) => uploader(u)),
        ];
        await sleep(300 + Math.random() * 900);
        const killed = server.kill9();
        running = false;
        await killed;
        await Promise.all(clients);
        server = undefined;

        // With the server down: integrity, and every asset's blob whole.
        const db = openDb();
        try {
          const check = await db.integrityCheck();
          if (!check.ok) problems.push(`round ${round}: integrity ${check.problems.join('; ')}`);
          const rows = await db.db
            .selectFrom('assets')
            .select(['node_id', 'blob_key', 'size', 'sha256', 'thumb_blob_key', 'type'])
            .where('blob_key', 'is not', null)
            .execute();
          const referenced = new Set<string>();
          for (const row of rows) {
            referenced.add(row.blob_key!);
            const file = blobPath(dataDir, row.blob_key!);
            const data = fs.existsSync(file) ? fs.readFileSync(file) : null;
            if (!data) problems.push(`round ${round}: asset ${row.node_id} points at missing blob ${row.blob_key}`);
            else if (data.length !== Number(row.size) || sha(data) !== row.sha256) {
              problems.push(
                `round ${round}: asset ${row.node_id}: blob ${data.length} bytes / ${sha(data).slice(0, 8)}, row ${row.size} / ${row.sha256?.slice(0, 8)}`,
              );
            }
            if (row.type === 'cmsImageAsset') {
              if (!row.thumb_blob_key || !fs.existsSync(blobPath(dataDir, row.thumb_blob_key))) {
                problems.push(`round ${round}: image ${row.node_id} has no thumbnail blob`);
              } else referenced.add(row.thumb_blob_key);
            }
          }
          // Every row has exactly its revisions, interrupted writes included.
          const history = await revisionProblems(db.db);
          stats.rowsRevisionChecked += history.rows;
          problems.push(...history.problems.map((m) => `round ${round}: ${m}`));
          // Blobs written by uploads the kill interrupted before their asset was recorded: garbage, not damage.
          orphanCounts.push(blobKeys(dataDir).filter((k) => !referenced.has(k)).length);
        } finally {
          await db.close();
        }
        if (round % 10 === 0) report(`crash: round ${round}/${ROUNDS}, ${problems.length} problem(s) so far`);
      }

      // Once more, after the last kill: everything acknowledged in any round, through the API.
      server = await start();
      await verify(server.url, ROUNDS + 1, () => true);
      await server.stop();
      server = undefined;

      // The orphan sweep (two passes, as the server runs it hours apart) removes the garbage and nothing else.
      const orphansBeforeSweep = orphanCounts[orphanCounts.length - 1] ?? 0;
      const swept = openDb();
      let sweptCount = 0;
      try {
        const store = new FsBlobStore(path.join(dataDir, 'blobs'));
        const first = await sweepOrphanBlobs(() => assetsRepository.blobKeysInUse(swept.db), store, new Set());
        const second = await sweepOrphanBlobs(
          () => assetsRepository.blobKeysInUse(swept.db),
          store,
          first.unreferenced,
        );
        sweptCount = second.deleted;
        if (second.unreferenced.size) problems.push(`sweep: ${second.unreferenced.size} orphan blob(s) left`);
        if (sweptCount !== orphansBeforeSweep) {
          problems.push(`sweep: deleted ${sweptCount}, but ${orphansBeforeSweep} were unreferenced`);
        }
      } finally {
        await swept.close();
      }
      server = await start();
      await verify(server.url, ROUNDS + 2, () => true);
      await server.stop();
      server = undefined;

      const startup = [...stats.startupMs].sort((a, b) => a - b);
      const summary = {
        database: PG_URL ? 'postgres' : 'sqlite',
        rounds: ROUNDS,
        ...stats,
        startupMs: { median: startup[Math.floor(startup.length / 2)], max: startup[startup.length - 1] },
        pages: pages.size,
        uploads: uploads.length,
        orphanBlobsAfterLastRound: orphanCounts[orphanCounts.length - 1] ?? 0,
        orphanBlobsPerRound: tally(orphanCounts),
        orphanBlobsSwept: sweptCount,
        pageRevisions: [...pages.values()].reduce((n, s) => n + s.committed.length, 0),
        problems: problems.slice(0, 50),
      };
      report(
        `crash (${summary.database}): ${ROUNDS} kills; ${stats.pageAcks}/${stats.pageWrites} page writes and ${stats.uploadAcks}/${stats.uploadsSent} uploads acknowledged; ` +
          `${problems.length} problem(s); ${summary.orphanBlobsAfterLastRound} orphan blob(s) left by interrupted uploads, ` +
          `${sweptCount} removed by two sweep passes, every acknowledged write still there; revisions: ` +
          `the ${summary.pageRevisions} of ${pages.size} pages are their committed changes (${stats.interruptedCommitted} ` +
          `interrupted writes found committed), ${stats.revisionsRead} read back, ${stats.rowsRevisionChecked} rows ` +
          `checked in the database after the kills`,
      );
      recordResult('crash', summary);
      expect(problems).toEqual([]);
      expect(stats.pageAcks).toBeGreaterThan(ROUNDS);
      expect(stats.uploadAcks).toBeGreaterThan(ROUNDS / 2);
      // 50 restarts take about 2 minutes on an idle 2-core machine; far longer when it is shared.
    }, 900_000);
  },
);
