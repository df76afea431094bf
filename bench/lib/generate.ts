/**
 * Generates the benchmark datasets through the service layer (the same services the REST routes call: every
 * row goes through their validation, id generator, presenters and transactions — no hand-written SQL), and
 * snapshots them under bench/.cache/data-v<N>/<pages>/ for later runs.
 *
 *   tsx bench/lib/generate.ts --out <dir> --pages 1000,100000
 *
 * One dataset per page count; all share the same base: the `bench-article` template, the `bench` site and its
 * SECTIONS sections, an image asset, and an asset folder of LISTING_ASSETS non-binary assets (so listing page
 * 2,000 exists at the default page size). Pages are added in order, so the 100k dataset is the 1k dataset plus
 * 99k pages.
 *
 * With `--database-url postgres://…` (one size only) the data goes into that database instead, and `--out`
 * becomes the data dir (blobs) of the server that benchmarks it.
 *
 * Speed: the only concession is `PRAGMA synchronous = OFF` on the generator's own connection while it writes
 * (a crash during generation loses the cache, not data anyone cares about); the snapshot is checkpointed and
 * copied when complete, and servers open it with their own settings (`synchronous = NORMAL` and group commit).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import sharp from 'sharp';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { SYSTEM_ACTOR } from '../../src/server/lib/context.js';
import { createAssetsService } from '../../src/server/modules/assets/assets.service.js';
import { createFoldersService } from '../../src/server/modules/folders/folders.service.js';
import { createPagesService } from '../../src/server/modules/pages/pages.service.js';
import { SEARCH_INDEX_BATCH } from '../../src/server/modules/search/search.indexer.js';
import { searchIndexRows } from '../../src/server/modules/search/search.index-rows.js';
import { createTemplatesService } from '../../src/server/modules/templates/templates.service.js';
import { ADMIN_PASSWORD } from './paths.js';
import {
  DATA_VERSION,
  IMAGE_ASSET,
  LISTING_ASSETS,
  LISTING_FOLDER,
  listingAssetName,
  pageSegments,
  PAGES_PER_FOLDER,
  SECTIONS,
  sectionSegments,
  SITE,
  TEMPLATE,
  type DatasetManifest,
} from './dataset.js';

function arg(name: string): string {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || !process.argv[i + 1]) throw new Error(`--${name} is required`);
  return process.argv[i + 1]!;
}

const outRoot = path.resolve(arg('out'));
const sizes = arg('pages')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
/** PostgreSQL: the data goes straight into that (empty) database, and `--out` becomes the server's data dir. */
const databaseUrl = process.argv.includes('--database-url') ? arg('database-url') : undefined;
const work = databaseUrl ? outRoot : path.join(outRoot, 'work');
if (!databaseUrl) fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });

const LOREM =
  'Folio keeps pages, folders and assets in one tree, addressed by path. Editors write, reviewers approve, and ' +
  'the public site shows what was approved. ';

/** A page's content: about 3 kB of JSON once presented (title, a long rich text body, a sidebar). */
function pageBody(i: number) {
  const paragraphs = Array.from(
    { length: 8 },
    (_, p) => `<p>Paragraph ${p + 1} of page ${i}. ${LOREM}${p % 2 ? '<strong>Important.</strong>' : ''}</p>`,
  ).join('');
  const text = (html: string) => ({
    type: 'cmsRichText',
    scope: 'local',
    editable: true,
    asset: { fields: { text: html } },
  });
  return {
    templateName: TEMPLATE,
    displayName: `Benchmark page ${i}`,
    summary: `Summary of benchmark page ${i}: generated content of a realistic size.`,
    seo: {
      browserTitle: `Page ${i} | Bench`,
      hideSearch: false,
      tags: ['bench', `t${i % 50}`],
      categories: ['Benchmarks'],
    },
    body: [
      { name: 'title', type: 'PAGE', editable: true, widgets: [text(`<h1>Benchmark page ${i}</h1>`)] },
      { name: 'body', type: 'PAGE', editable: true, widgets: [text(paragraphs)] },
      {
        name: 'sidebar',
        type: 'PAGE',
        editable: true,
        widgets: [text('<p>Related: <a href="/bench">Bench home</a></p>')],
      },
    ],
  } as const;
}

async function main() {
  const started = Date.now();
  const config = loadConfig({
    CMS_DATA_DIR: work,
    CMS_ADMIN_PASSWORD: ADMIN_PASSWORD,
    CMS_SEED: 'false',
    LOG_LEVEL: 'silent',
    CMS_WEB_DIR: path.join(work, 'no-spa'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const app = await buildApp(config, { logger: false });
  await app.ready();
  const { ctx } = app.folio;
  if (!databaseUrl) await sql`pragma synchronous = OFF`.execute(ctx.db);
  // PostgreSQL: fresh statistics as the tables grow, as autovacuum would keep them. Where it is off (as on the
  // machines here), the plans of the foreign-key checks made while the tables were empty stay, and every insert
  // scans whole tables (asset generation fell from ~3,000/s to ~95/s at 80k).
  const analyze = async () => {
    if (databaseUrl) await sql`analyze`.execute(ctx.db);
  };
  const actor = SYSTEM_ACTOR;
  const templates = createTemplatesService(ctx);
  const folders = createFoldersService(ctx);
  const pages = createPagesService(ctx);
  const assets = createAssetsService(ctx);

  await templates.put(actor, TEMPLATE, {
    label: 'Benchmark article',
    description: 'Header and footer from the template around a title, a body and a sidebar.',
    regions: [
      {
        name: 'header',
        editable: false,
        widgets: [{ type: 'cmsNavon', asset: { fields: { layout: 'horizontal', levels: '2' } } }],
      },
      { name: 'title', editable: true },
      { name: 'body', editable: true },
      { name: 'sidebar', editable: true },
      {
        name: 'footer',
        editable: false,
        widgets: [{ type: 'cmsRichText', asset: { fields: { text: '<p>© Bench</p>' } } }],
      },
    ],
  });
  await folders.put(actor, [SITE], {
    siteName: SITE,
    sectionInfo: { displayTitle: 'Benchmarks', templateName: TEMPLATE, targetWindow: '_self', navClass: '' },
  });
  for (let i = 0; i < SECTIONS; i++) {
    await folders.put(actor, sectionSegments(i), {
      sectionInfo: { displayTitle: `Section ${i}`, templateName: TEMPLATE, targetWindow: '_self', navClass: '' },
    });
  }

  // The image asset of "GET asset metadata": a real upload, with its thumbnail.
  const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3b82f6' } })
    .jpeg({ quality: 80 })
    .toBuffer();
  await assets.upload(actor, IMAGE_ASSET, Readable.from([jpeg]));
  await assets.put(actor, IMAGE_ASSET, { fields: { alttext: 'A blue rectangle', displaytitle: 'Benchmark photo' } });

  let t = Date.now();
  for (let i = 0; i < LISTING_ASSETS; i++) {
    await assets.put(actor, [...LISTING_FOLDER, listingAssetName(i)], {
      type: 'cmsSimpleTextAsset',
      fields: { text: `Snippet ${i}: opening hours, a phone number, a short note.` },
    });
    if ((i + 1) % 5000 === 0) await analyze();
    if ((i + 1) % 20000 === 0) log(`assets ${i + 1}/${LISTING_ASSETS} (${rate(20000, t)})`);
    if ((i + 1) % 20000 === 0) t = Date.now();
  }

  const createdFolders = new Set<string>();
  let made = 0;
  t = Date.now();
  for (const size of sizes) {
    for (; made < size; made++) {
      const segs = pageSegments(made);
      for (let d = 2; d < segs.length; d++) {
        const folder = segs.slice(0, d);
        const key = folder.join('/');
        if (!createdFolders.has(key)) {
          await folders.put(actor, folder, {});
          createdFolders.add(key);
        }
      }
      await pages.put(actor, segs, pageBody(made) as never);
      if ((made + 1) % 5000 === 0) await analyze();
      if ((made + 1) % 10000 === 0) {
        log(`pages ${made + 1}/${sizes[sizes.length - 1]} (${rate(10000, t)})`);
        t = Date.now();
      }
    }
    // Indexed for search, as a server that ran a while would have it: otherwise every run starts with 100k queued
    // ids its background indexer works through while the cases are measured (CPU and SQLite's write lock).
    while ((await searchIndexRows.reindex(ctx.db, SEARCH_INDEX_BATCH)) > 0);
    // And vacuumed, as autovacuum would have done since: a copy of the database starts without the statistics that
    // would wake autovacuum, so the drained queue's dead rows and the GIN indexes' pending entries would stay, and
    // every search would read them (1–10 ms each).
    if (databaseUrl) await sql`vacuum analyze`.execute(ctx.db);
    await snapshot(size);
  }
  await app.close();
  if (!databaseUrl) fs.rmSync(work, { recursive: true, force: true });
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  async function snapshot(size: number) {
    let dest = work;
    if (!databaseUrl) {
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(ctx.db);
      dest = path.join(outRoot, String(size));
      fs.rmSync(dest, { recursive: true, force: true });
      fs.mkdirSync(dest, { recursive: true });
      fs.copyFileSync(path.join(work, 'folio.db'), path.join(dest, 'folio.db'));
      fs.cpSync(path.join(work, 'blobs'), path.join(dest, 'blobs'), { recursive: true });
    }
    const manifest: DatasetManifest = {
      version: DATA_VERSION,
      pages: size,
      pagesPerFolder: PAGES_PER_FOLDER,
      listingAssets: LISTING_ASSETS,
      generatedAt: new Date().toISOString(),
      generationSeconds: Math.round((Date.now() - started) / 1000),
    };
    fs.writeFileSync(path.join(dest, 'manifest.json'), JSON.stringify(manifest, null, 2));
    log(`snapshot ${size} pages → ${dest}`);
  }
}

function rate(n: number, since: number) {
  return `${Math.round((n * 1000) / Math.max(1, Date.now() - since))}/s`;
}

function log(line: string) {
  process.stdout.write(`  [generate] ${line}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`generate failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
