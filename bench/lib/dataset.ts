import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { CACHE, ROOT } from './paths.js';

/**
 * Version of the generated data's format: bump it whenever generate.ts makes different data, and every cached
 * dataset is generated again.
 */
export const DATA_VERSION = 3;
export const TEMPLATE = 'bench-article';
export const SITE = 'bench';
export const PAGES_PER_FOLDER = 100;
const FOLDERS_PER_GROUP = 100;
/** Page 2,000 of the listing at the default page size (50) needs 99,951 assets; a few more end the list. */
export const LISTING_PAGE_SIZE = 50;
export const LISTING_PAGE = 2000;
export const LISTING_ASSETS = LISTING_PAGE * LISTING_PAGE_SIZE + 25;
export const LISTING_FOLDER = ['Assets', 'bench-list'];
export const IMAGE_ASSET = ['Assets', 'bench', 'photo.jpg'];
/** Sections of the site (each with its landing page) whose display titles "PUT section" changes. */
export const SECTIONS = 50;

/** Where section `i` lives: `bench/s<i>`. */
export function sectionSegments(i: number): string[] {
  return [SITE, `s${pad(i, 2)}`];
}

export interface DatasetManifest {
  version: number;
  pages: number;
  pagesPerFolder: number;
  listingAssets: number;
  generatedAt: string;
  generationSeconds: number;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Where page `i` lives: `bench/g<group>/f<folder>/p<page>`, 100 pages per folder, 100 folders per group. */
export function pageSegments(i: number): string[] {
  const folder = Math.floor(i / PAGES_PER_FOLDER);
  return [
    SITE,
    `g${pad(Math.floor(folder / FOLDERS_PER_GROUP), 2)}`,
    `f${pad(folder % FOLDERS_PER_GROUP, 3)}`,
    `p${pad(i % PAGES_PER_FOLDER, 3)}`,
  ];
}

/** The folder that holds exactly 100 pages in every dataset. */
export const FULL_FOLDER = pageSegments(0).slice(0, -1);

export function listingAssetName(i: number): string {
  return `snippet-${pad(i, 6)}`;
}

/**
 * Cached datasets are keyed by DATA_VERSION and by the migrations they were made with (names and contents):
 * a schema change makes new ones rather than benchmarking a database migrated in place.
 */
function datasetRoot(): string {
  return path.join(CACHE, `data-v${DATA_VERSION}-${datasetMigrations()}`);
}

/**
 * The migrations hash the datasets are taken for: this tree's, or `BENCH_DATASET_MIGRATIONS` (a hash of cached
 * datasets, made with fewer migrations) to run on those, migrated in place when the server starts. Only for
 * migrations that change no content (triggers, a dropped column): it spares generating the datasets again and
 * dropping the PostgreSQL template other trees on this machine are using.
 */
export function datasetMigrations(): string {
  return process.env.BENCH_DATASET_MIGRATIONS || migrationsHash(ROOT);
}

/**
 * A short hash of the migrations (names and contents) of the source tree at `treeRoot`: two trees with the same
 * one make and open the same databases.
 */
export function migrationsHash(treeRoot: string): string {
  const dir = path.join(treeRoot, 'src/server/db/migrations');
  const hash = createHash('sha256');
  for (const f of fs.readdirSync(dir).sort()) hash.update(f).update(fs.readFileSync(path.join(dir, f)));
  return hash.digest('hex').slice(0, 8);
}

/** The cached snapshot of `pages` pages; generates every missing size of `sizes` first (minutes for 100k). */
export function ensureDatasets(sizes: number[]): Record<number, string> {
  const root = datasetRoot();
  const missing = sizes.filter((s) => !fs.existsSync(path.join(root, String(s), 'manifest.json')));
  if (missing.length) {
    // Datasets of other versions or schemas are of no further use.
    for (const d of fs.existsSync(CACHE) ? fs.readdirSync(CACHE) : []) {
      if (d.startsWith('data-v') && path.join(CACHE, d) !== root)
        fs.rmSync(path.join(CACHE, d), { recursive: true, force: true });
    }
    // Generating the largest size also produces the smaller ones on the way, in one pass.
    const all = [...new Set([...sizes])].sort((a, b) => a - b);
    process.stdout.write(`Generating datasets (${all.join(', ')} pages) under ${path.relative(ROOT, root)} …\n`);
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'bench/lib/generate.ts'), '--out', root, '--pages', all.join(',')],
      { stdio: 'inherit', cwd: ROOT },
    );
    if (r.status !== 0) throw new Error('dataset generation failed');
  }
  return Object.fromEntries(sizes.map((s) => [s, path.join(root, String(s))]));
}

export function readManifest(dir: string): DatasetManifest {
  return JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;
}

/** A fresh data dir holding a copy of the snapshot (the cache stays pristine); remove it when done. */
export function copyDataset(dir: string): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-data-'));
  fs.copyFileSync(path.join(dir, 'folio.db'), path.join(dataDir, 'folio.db'));
  fs.cpSync(path.join(dir, 'blobs'), path.join(dataDir, 'blobs'), { recursive: true });
  return dataDir;
}

/** `baseUrl` (a PostgreSQL URL) with the database `name` instead of its own. */
export function databaseUrlOf(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** Names of the PostgreSQL template databases that hold generated datasets. */
const PG_TEMPLATE_PREFIX = 'folio_bench_tpl_';

/**
 * A PostgreSQL database holding the dataset of `pages` pages, and a data dir with its blobs, for one run. The
 * dataset is generated once (minutes: 100,025 assets through the services) into a template database named after
 * DATA_VERSION and the migrations, with its blobs under bench/.cache/; each run gets `create database … template`
 * of it (seconds) and a copy of the blobs. Templates of other versions or schemas are dropped, unless in use.
 */
export async function pgDataset(
  admin: pg.Client,
  baseUrl: string,
  pages: number,
  log: (line: string) => void,
): Promise<{ url: string; dataDir: string; drop(): Promise<void> }> {
  const key = `v${DATA_VERSION}_${datasetMigrations()}_${pages}`;
  const template = `${PG_TEMPLATE_PREFIX}${key}`;
  const blobsOf = path.join(CACHE, `pg-${key}`);
  const urlOf = (db: string) => databaseUrlOf(baseUrl, db);
  const existing = (
    await admin.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [
      `${PG_TEMPLATE_PREFIX}%`,
    ])
  ).rows.map((r) => r.datname);
  const ready = existing.includes(template) && fs.existsSync(path.join(blobsOf, 'manifest.json'));
  if (!ready) {
    await admin.query(`drop database if exists ${template} with (force)`);
    // Other versions' templates go unless someone is connected to one: another tree on this machine generating
    // or copying it (a forced drop killed their runs).
    for (const db of existing.filter((d) => d !== template)) {
      await admin.query(`drop database if exists ${db}`).catch((err: { code?: string }) => {
        if (err.code !== '55006') throw err; // object_in_use
      });
    }
    for (const d of fs.existsSync(CACHE) ? fs.readdirSync(CACHE) : []) {
      if (d.startsWith('pg-')) fs.rmSync(path.join(CACHE, d), { recursive: true, force: true });
    }
    log(`  generating the PostgreSQL dataset into ${template} (once; later runs copy it) …`);
    await admin.query(`create database ${template}`);
    fs.mkdirSync(blobsOf, { recursive: true });
    const gen = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'bench/lib/generate.ts'),
        '--out',
        blobsOf,
        '--pages',
        String(pages),
        '--database-url',
        urlOf(template),
      ],
      { stdio: 'inherit', cwd: ROOT },
    );
    if (gen.status !== 0) {
      await admin.query(`drop database if exists ${template} with (force)`);
      fs.rmSync(blobsOf, { recursive: true, force: true });
      throw new Error('PostgreSQL dataset generation failed');
    }
  }
  const name = `folio_bench_${process.pid}_${Date.now()}`;
  await admin.query(`create database ${name} template ${template}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-pg-'));
  fs.cpSync(path.join(blobsOf, 'blobs'), path.join(dataDir, 'blobs'), { recursive: true });
  return {
    url: urlOf(name),
    dataDir,
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await admin.query(`drop database if exists ${name} with (force)`);
    },
  };
}
