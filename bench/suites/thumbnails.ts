import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { makeThumbnail, probeImage } from '../../src/server/modules/assets/images.js';
import { median } from '../lib/load.js';

export interface ThumbnailResult {
  width: number;
  height: number;
  fileBytes: number;
  runs: number;
  /** Milliseconds: the server's makeThumbnail alone, and header probe + thumbnail (what an upload pays). */
  thumbnailMedian: number;
  uploadStepMedian: number;
  thumbnailAll: number[];
}

/**
 * A 12 MP photo-like JPEG (smooth shapes under fine noise, about the size a camera writes) through the server's
 * own image functions (src/server/modules/assets/images.ts) with the default settings: 300 px box, 50 MP limit.
 */
export async function thumbnailSuite(opts: { runs: number }, log: (line: string) => void): Promise<ThumbnailResult> {
  const width = 4000;
  const height = 3000;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-thumb-'));
  const file = path.join(dir, 'photo.jpg');
  try {
    const scene = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
        <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stop-color="#0ea5e9"/><stop offset="1" stop-color="#fef3c7"/></linearGradient></defs>
        <rect width="100%" height="100%" fill="url(#g)"/>
        <circle cx="2900" cy="800" r="420" fill="#fde047"/>
        <path d="M0 3000 L900 1500 L1700 2300 L2700 1200 L4000 2400 L4000 3000 Z" fill="#166534"/></svg>`,
    );
    const noise = await sharp({
      create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 18 } },
    })
      .png()
      .toBuffer();
    await sharp(scene)
      .composite([{ input: noise, blend: 'overlay' }])
      .jpeg({ quality: 88 })
      .toFile(file);
    const fileBytes = fs.statSync(file).size;
    const thumb: number[] = [];
    const step: number[] = [];
    for (let i = 0; i < opts.runs + 2; i++) {
      const t0 = process.hrtime.bigint();
      const size = await probeImage(file, 'image/jpeg', 50_000_000);
      const t1 = process.hrtime.bigint();
      const out = await makeThumbnail(file, size.format, 300, 50_000_000);
      const t2 = process.hrtime.bigint();
      if (out.width !== 300) throw new Error(`thumbnail is ${out.width} wide`);
      if (i < 2) continue; // warm-up
      thumb.push(Number(t2 - t1) / 1e6);
      step.push(Number(t2 - t0) / 1e6);
    }
    const res = {
      width,
      height,
      fileBytes,
      runs: opts.runs,
      thumbnailMedian: median(thumb),
      uploadStepMedian: median(step),
      thumbnailAll: thumb.map((t) => Math.round(t * 10) / 10),
    };
    log(
      `  12 MP JPEG (${(fileBytes / 1024 / 1024).toFixed(1)} MiB): thumbnail median ${res.thumbnailMedian.toFixed(1)} ms` +
        ` (probe + thumbnail ${res.uploadStepMedian.toFixed(1)} ms) over ${opts.runs} runs`,
    );
    return res;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
