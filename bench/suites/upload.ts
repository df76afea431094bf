import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_BASIC } from '../lib/paths.js';
import { memoryOf, sampleMemory, shippedNodeFlags, startBareServer, startFolio } from '../lib/server.js';

const MiB = 1024 * 1024;

export interface TransferResult {
  bytes: number;
  /** MiB/s, best of the rounds. */
  folioUpload: number;
  bareUpload: number;
  /**
   * The bare server writing the body the tuned way (1 MiB positional writes, 4 in flight, background flushes,
   * fsync): what network + disk allow a durable upload with no parsing, sniffing or hashing.
   */
  bareBatchedUpload: number;
  cp: number;
  /** cp followed by fsync of the copy: as durable as a stored blob. */
  cpFsync: number;
  folioDownload: number;
  bareDownload: number;
  /** folioUpload / cp, folioUpload / cpFsync, folioDownload / bareDownload. */
  uploadVsCp: number;
  uploadVsCpFsync: number;
  /** folioUpload / bareBatchedUpload. */
  uploadVsBareBatched: number;
  downloadVsBare: number;
  /** Bytes: RSS of the server just before the upload, its peak during it (sampled every 20 ms), and the growth. */
  rssBefore: number;
  rssPeak: number;
  rssGrowth: number;
  /** VmHWM after the upload minus RSS before (an upper bound: VmHWM also counts start-up). */
  hwmGrowth: number;
  /** MiB/s of every round. */
  rounds: Record<
    'folioUpload' | 'bareUpload' | 'bareBatchedUpload' | 'cp' | 'cpFsync' | 'folioDownload' | 'bareDownload',
    number[]
  >;
}

/** A file of `bytes` random-looking bytes (not sparse: cp and the server must really move them). */
function makeFile(file: string, bytes: number) {
  const fd = fs.openSync(file, 'w');
  const block = randomBytes(4 * MiB);
  for (let written = 0; written < bytes; written += block.length) {
    block.writeUInt32LE(written >>> 0, 0); // every block differs
    fs.writeSync(fd, block, 0, Math.min(block.length, bytes - written));
  }
  // On disk before anything is timed: no writeback of this file competes with the measurements.
  fs.fsyncSync(fd);
  fs.closeSync(fd);
}

function seconds(cmd: string, args: string[]): { s: number; out: string } {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  const s = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return { s, out: r.stdout };
}

const run = promisify(execFile);

/**
 * curl upload/download; answers seconds and the HTTP status. Asynchronous, so that the memory sampler keeps
 * running while the transfer does.
 */
async function curl(args: string[]): Promise<{ s: number; status: number }> {
  const { stdout } = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', ...args]);
  const [status, total] = stdout.trim().split(' ');
  return { s: Number(total), status: Number(status) };
}

/**
 * A 1 GiB file uploaded to and downloaded from a fresh Folio server, beside `cp` of the same file and a bare
 * node:http stream (same client: curl). Peak RSS growth of the server during the upload.
 */
export async function uploadSuite(
  opts: { bytes: number; rounds: number },
  log: (line: string) => void,
): Promise<TransferResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-upload-'));
  const file = path.join(dir, 'big.bin');
  const dataDir = path.join(dir, 'data');
  const mib = opts.bytes / MiB;
  makeFile(file, opts.bytes);
  const folio = await startFolio({ dataDir, env: { CMS_MAX_UPLOAD_BYTES: String(opts.bytes * 2) } });
  // The bare stream runs on the same node flags as the server, so the comparison is of the code alone.
  const bare = await startBareServer(['--mode', 'stream', '--file', file], shippedNodeFlags());
  const best = (xs: number[]) => Math.max(...xs);
  try {
    const cp: number[] = [];
    const cpFsync: number[] = [];
    for (let r = 0; r < opts.rounds; r++) {
      const copy = path.join(dir, `copy-${r}.bin`);
      const t = process.hrtime.bigint();
      seconds('cp', [file, copy]);
      cp.push(mib / (Number(process.hrtime.bigint() - t) / 1e9));
      const fd = fs.openSync(copy, 'r+');
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      cpFsync.push(mib / (Number(process.hrtime.bigint() - t) / 1e9));
      fs.rmSync(copy);
    }

    const bareUp: number[] = [];
    for (let r = 0; r < opts.rounds; r++) {
      const u = await curl(['-F', `file=@${file};type=application/octet-stream`, `${bare.url}/upload`]);
      if (u.status !== 201) throw new Error(`bare upload → ${u.status}`);
      bareUp.push(mib / u.s);
    }
    const bareBatchedUp: number[] = [];
    for (let r = 0; r < opts.rounds; r++) {
      const u = await curl(['-F', `file=@${file};type=application/octet-stream`, `${bare.url}/upload-batched`]);
      if (u.status !== 201) throw new Error(`bare batched upload → ${u.status}`);
      bareBatchedUp.push(mib / u.s);
    }

    // The first upload is the one whose memory is measured: a fresh server, nothing uploaded before.
    const folioUp: number[] = [];
    let memory = { before: 0, peak: 0, hwm: 0 };
    for (let r = 0; r < opts.rounds; r++) {
      const before = memoryOf(folio.pid)!.rss;
      const sampler = sampleMemory(folio.pid);
      const u = await curl([
        '-H',
        `authorization: ${ADMIN_BASIC}`,
        '-F',
        `file=@${file};type=application/octet-stream`,
        `${folio.url}/cms/rest/assets/binary/Assets/bench/big-${r}.bin`,
      ]);
      const m = sampler.stop();
      if (u.status !== 201) throw new Error(`Folio upload → ${u.status}: ${folio.output().slice(-2000)}`);
      if (r === 0) memory = { before, peak: m.peakRss, hwm: m.hwm };
      folioUp.push(mib / u.s);
      if (r > 0) {
        const del = await fetch(`${folio.url}/cms/rest/assets/by-path/Assets/bench/big-${r}.bin`, {
          method: 'DELETE',
          headers: { authorization: ADMIN_BASIC },
        });
        await del.arrayBuffer();
      }
    }

    // One unmeasured download of each first: the later uploads and copies may have pushed either file out of
    // the page cache, and both sides must read from memory alike.
    await curl(['-H', `authorization: ${ADMIN_BASIC}`, `${folio.url}/cms/rest/assets/binary/Assets/bench/big-0.bin`]);
    await curl([`${bare.url}/file`]);
    const folioDown: number[] = [];
    const bareDown: number[] = [];
    for (let r = 0; r < opts.rounds; r++) {
      const f = await curl([
        '-H',
        `authorization: ${ADMIN_BASIC}`,
        `${folio.url}/cms/rest/assets/binary/Assets/bench/big-0.bin`,
      ]);
      if (f.status !== 200) throw new Error(`Folio download → ${f.status}`);
      folioDown.push(mib / f.s);
      const b = await curl([`${bare.url}/file`]);
      if (b.status !== 200) throw new Error(`bare download → ${b.status}`);
      bareDown.push(mib / b.s);
    }

    const res: TransferResult = {
      bytes: opts.bytes,
      folioUpload: best(folioUp),
      bareUpload: best(bareUp),
      bareBatchedUpload: best(bareBatchedUp),
      cp: best(cp),
      cpFsync: best(cpFsync),
      folioDownload: best(folioDown),
      bareDownload: best(bareDown),
      uploadVsCp: best(folioUp) / best(cp),
      uploadVsCpFsync: best(folioUp) / best(cpFsync),
      uploadVsBareBatched: best(folioUp) / best(bareBatchedUp),
      downloadVsBare: best(folioDown) / best(bareDown),
      rssBefore: memory.before,
      rssPeak: memory.peak,
      rssGrowth: memory.peak - memory.before,
      hwmGrowth: memory.hwm - memory.before,
      rounds: {
        folioUpload: folioUp,
        bareUpload: bareUp,
        bareBatchedUpload: bareBatchedUp,
        cp,
        cpFsync,
        folioDownload: folioDown,
        bareDownload: bareDown,
      },
    };
    const f1 = (n: number) => n.toFixed(0);
    log(
      `  upload ${f1(res.folioUpload)} MiB/s (cp ${f1(res.cp)}, cp+fsync ${f1(res.cpFsync)}, bare stream ${f1(res.bareUpload)}, ` +
        `bare batched ${f1(res.bareBatchedUpload)})` +
        `  download ${f1(res.folioDownload)} MiB/s (bare stream ${f1(res.bareDownload)})` +
        `  RSS growth ${(res.rssGrowth / MiB).toFixed(1)} MiB`,
    );
    // Every round, in the order run: on a shared machine the best hides how noisy the disk was.
    for (const [name, xs] of Object.entries(res.rounds)) log(`    ${name.padEnd(18)} ${xs.map(f1).join(' ')} MiB/s`);
    return res;
  } finally {
    await folio.stop();
    await bare.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
