/**
 * Crash safety: ROUNDS times, the server is killed with SIGKILL while clients write pages and upload files.
 * After every kill: the database passes its integrity check, every write acknowledged with a 2xx is there
 * (pages hold at least the last acknowledged change), and no asset points at a missing or partial blob. At the
 * end, two passes of the orphan sweep remove exactly the unreferenced blobs, and every acknowledged write is still
 * there.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { FsBlobStore } from '../../src/server/blobs/fs-blob-store.js';
import { sweepOrphanBlobs } from '../../src/server/blobs/orphan-sweep.js';
import { assetsRepository } from '../../src/server/modules/assets/assets.repository.js';
import { ADMIN_BASIC } from '../lib/paths.js';
import { startFolio, type RunningProcess } from '../lib/server.js';
import { recordResult } from './results.js';
import { blobKeys, blobPath, call, createTemplate, ok, openDataDir, report, tally, upload } from './support.js';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 50);
const PAGE_WRITERS = 4;
const UPLOADERS = 2;

interface PageState {
  /** Highest change number acknowledged with a 2xx, and the highest sent. */
  acked: number;
  sent: number;
  /** The round that last wrote it. */
  round: number;
}
interface UploadState {
  path: string;
  size: number;
  sha256: string;
  image: boolean;
  round: number;
}

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`crash safety: ${ROUNDS} rounds of kill -9 during writes`, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-crash-'));
  let server: RunningProcess | undefined;

  afterAll(async () => {
    await server?.kill9();
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
    };
    const problems: string[] = [];
    const orphanCounts: number[] = [];

    /** Every acknowledged page holds at least its last acknowledged change; uploads `which` download whole. */
    async function verify(url: string, round: number, which: (item: { round: number }) => boolean) {
      for (const [p, state] of pages) {
        if (!which(state)) continue;
        const r = await call(url, 'GET', `/cms/rest/pages/by-path/${p}`);
        if (state.acked === 0 && r.status === 404) continue; // never acknowledged, never stored
        if (r.status !== 200) {
          problems.push(`round ${round}: ${p} → ${r.status} (acknowledged change ${state.acked})`);
          continue;
        }
        const n = Number(/^change (\d+)$/.exec(r.json<{ displayName: string }>().displayName)?.[1] ?? -1);
        if (n < state.acked || n > state.sent) {
          problems.push(`round ${round}: ${p} holds change ${n}; acknowledged ${state.acked}, sent ${state.sent}`);
        }
        state.acked = Math.max(state.acked, n);
      }
      for (const u of uploads.filter(which)) {
        const r = await fetch(`${url}/cms/rest/assets/binary/${u.path}`, { headers: { authorization: ADMIN_BASIC } });
        const body = Buffer.from(await r.arrayBuffer());
        if (r.status !== 200 || body.length !== u.size || sha(body) !== u.sha256) {
          problems.push(`round ${round}: ${u.path} → ${r.status}, ${body.length} bytes (expected ${u.size})`);
        }
      }
    }

    for (let round = 1; round <= ROUNDS; round++) {
      const t0 = Date.now();
      server = await startFolio({ dataDir });
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
          const state = pages.get(p) ?? { acked: 0, sent: 0, round };
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
      const db = openDataDir(dataDir);
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
        // Blobs written by uploads the kill interrupted before their asset was recorded: garbage, not damage.
        orphanCounts.push(blobKeys(dataDir).filter((k) => !referenced.has(k)).length);
      } finally {
        await db.close();
      }
      if (round % 10 === 0) report(`crash: round ${round}/${ROUNDS}, ${problems.length} problem(s) so far`);
    }

    // Once more, after the last kill: everything acknowledged in any round, through the API.
    server = await startFolio({ dataDir });
    await verify(server.url, ROUNDS + 1, () => true);
    await server.stop();
    server = undefined;

    // The orphan sweep (two passes, as the server runs it hours apart) removes the garbage and nothing else.
    const orphansBeforeSweep = orphanCounts[orphanCounts.length - 1] ?? 0;
    const swept = openDataDir(dataDir);
    let sweptCount = 0;
    try {
      const store = new FsBlobStore(path.join(dataDir, 'blobs'));
      const first = await sweepOrphanBlobs(() => assetsRepository.blobKeysInUse(swept.db), store, new Set());
      const second = await sweepOrphanBlobs(() => assetsRepository.blobKeysInUse(swept.db), store, first.unreferenced);
      sweptCount = second.deleted;
      if (second.unreferenced.size) problems.push(`sweep: ${second.unreferenced.size} orphan blob(s) left`);
      if (sweptCount !== orphansBeforeSweep) {
        problems.push(`sweep: deleted ${sweptCount}, but ${orphansBeforeSweep} were unreferenced`);
      }
    } finally {
      await swept.close();
    }
    server = await startFolio({ dataDir });
    await verify(server.url, ROUNDS + 2, () => true);
    await server.stop();
    server = undefined;

    const startup = [...stats.startupMs].sort((a, b) => a - b);
    const summary = {
      rounds: ROUNDS,
      ...stats,
      startupMs: { median: startup[Math.floor(startup.length / 2)], max: startup[startup.length - 1] },
      pages: pages.size,
      uploads: uploads.length,
      orphanBlobsAfterLastRound: orphanCounts[orphanCounts.length - 1] ?? 0,
      orphanBlobsPerRound: tally(orphanCounts),
      orphanBlobsSwept: sweptCount,
      problems: problems.slice(0, 50),
    };
    report(
      `crash: ${ROUNDS} kills; ${stats.pageAcks}/${stats.pageWrites} page writes and ${stats.uploadAcks}/${stats.uploadsSent} uploads acknowledged; ` +
        `${problems.length} problem(s); ${summary.orphanBlobsAfterLastRound} orphan blob(s) left by interrupted uploads, ` +
        `${sweptCount} removed by two sweep passes, every acknowledged write still there`,
    );
    recordResult('crash', summary);
    expect(problems).toEqual([]);
    expect(stats.pageAcks).toBeGreaterThan(ROUNDS);
    expect(stats.uploadAcks).toBeGreaterThan(ROUNDS / 2);
    // 50 restarts take about 2 minutes on an idle 2-core machine; far longer when it is shared.
  }, 900_000);
});
