import path from 'node:path';
import { z } from 'zod';
import type { S3Settings } from './blobs/s3-blob-store.js';

const MiB = 1024 * 1024;

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  CMS_DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  CMS_ADMIN_PASSWORD: z.string().optional(),
  CMS_SEED: bool.default(true),
  CMS_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(256 * MiB),
  CMS_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * MiB),
  CMS_THUMBNAIL_SIZE: z.coerce.number().int().min(16).max(4096).default(300),
  CMS_MAX_IMAGE_PIXELS: z.coerce.number().int().positive().default(50_000_000),
  CMS_BLOB_STORE: z.enum(['fs', 's3']).default('fs'),
  CMS_BLOB_DIR: z.string().optional(),
  // The S3-compatible blob store (CMS_BLOB_STORE=s3).
  CMS_S3_BUCKET: z.string().optional(),
  CMS_S3_ENDPOINT: z.url().optional(),
  CMS_S3_REGION: z.string().min(1).default('us-east-1'),
  CMS_S3_ACCESS_KEY_ID: z.string().optional(),
  CMS_S3_SECRET_ACCESS_KEY: z.string().optional(),
  CMS_S3_PREFIX: z.string().default(''),
  CMS_S3_FORCE_PATH_STYLE: bool.optional(),
  CMS_S3_PART_SIZE_MIB: z.coerce.number().int().min(5).max(5120).default(8),
  CMS_S3_UPLOAD_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  // Hours between passes of the orphan blob sweep (blobs/orphan-sweep.ts); 0 turns it off.
  CMS_BLOB_SWEEP_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 365)
    .default(6),
  // Connections to PostgreSQL per node: the server's max_connections must cover nodes × this.
  CMS_DB_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  CMS_SESSION_IDLE_MINUTES: z.coerce.number().positive().default(30),
  CMS_SESSION_ABSOLUTE_HOURS: z.coerce.number().positive().default(8),
  CMS_COOKIE_SECURE: bool.default(false),
  CMS_WEB_DIR: z.string().default('./dist'),
  // The response cache of GETs (plugins/response-cache.ts): on/off, its size, and how long an entry is trusted.
  CMS_RESPONSE_CACHE: z.enum(['on', 'off']).default('on'),
  CMS_RESPONSE_CACHE_MB: z.coerce.number().positive().default(64),
  CMS_RESPONSE_CACHE_MAX_AGE_S: z.coerce.number().positive().default(30),
  CMS_LEASE_SECONDS: z.coerce.number().int().min(10).max(86_400).default(120),
  // Revisions kept per page or asset (modules/revisions): `all`, a number (the newest N), or days (`90d`).
  CMS_REVISIONS_KEEP: z
    .string()
    .trim()
    .regex(/^(?:all|[1-9]\d{0,8}|[1-9]\d{0,5}d)$/, 'must be all, a number of revisions, or days such as 90d')
    .default('all'),
  // How often each node looks for scheduled publishing that is due (modules/pages/page-schedule.ts).
  CMS_SCHEDULE_SECONDS: z.coerce.number().min(0.1).max(3600).default(5),
  // Days a deleted item waits in the trash before it is purged with its history (modules/trash).
  CMS_TRASH_DAYS: z.coerce.number().int().min(1).max(36_500).default(30),
  // A search whose words more items hold ranks only the newest this many of them (modules/search).
  CMS_SEARCH_RANK_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(2000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** The name of every environment variable the server reads (the README's Configuration table lists each). */
export const ENV_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

/** Everything the server reads from its environment, resolved and typed. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://…` selects PostgreSQL; otherwise SQLite at `<dataDir>/folio.db`. */
  databaseUrl?: string;
  adminPassword?: string;
  seed: boolean;
  maxUploadBytes: number;
  maxBodyBytes: number;
  thumbnailSize: number;
  maxImagePixels: number;
  blobStore: 'fs' | 's3';
  /** Time between orphan blob sweeps (`CMS_BLOB_SWEEP_HOURS`); 0: no sweeping. */
  blobSweepMs: number;
  /** The filesystem store's directory; several nodes share one (`CMS_BLOB_DIR`). */
  blobDir: string;
  /** The S3-compatible store's settings; set when `blobStore` is `s3`. */
  s3?: S3Settings;
  /** PostgreSQL connections per node. */
  dbPoolSize: number;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  cookieSecure: boolean;
  /** The built SPA (Vite's output); served when it exists. */
  webDir: string;
  logLevel: string;
  /** Serve flagged GETs from the in-memory response cache (`CMS_RESPONSE_CACHE=on`). */
  responseCache: boolean;
  /** The response cache's size bound in bytes (`CMS_RESPONSE_CACHE_MB`). */
  responseCacheBytes: number;
  /**
   * How long a cached answer (and a remembered Basic credential's generation) is trusted at most
   * (`CMS_RESPONSE_CACHE_MAX_AGE_S`): bounds the damage of a node that crashed between a commit and its bump.
   */
  responseCacheMaxAgeMs: number;
  /** How long a check-out lease holds without renewal (`CMS_LEASE_SECONDS`, 120; modules/leases). */
  leaseMs: number;
  /** Revisions kept per item (`CMS_REVISIONS_KEEP`): the newest `count`, those of the last `days`; null: all. */
  revisionsKeep: { count: number | null; days: number | null };
  /** How often each node acts on due `publishAt` / `unpublishAt` (`CMS_SCHEDULE_SECONDS`, 5; lib/scheduler.ts). */
  scheduleMs: number;
  /** Days a deleted item waits in the trash before it is purged (`CMS_TRASH_DAYS`, 30; modules/trash). */
  trashDays: number;
  /** A search ranks at most the newest this many matches (`CMS_SEARCH_RANK_LIMIT`, 2000; modules/search). */
  searchRankLimit: number;
}

/** `CMS_REVISIONS_KEEP` (validated): `all`, `N` revisions or `Nd` days. */
function revisionsKeepOf(value: string): Config['revisionsKeep'] {
  if (value === 'all') return { count: null, days: null };
  if (value.endsWith('d')) return { count: null, days: Number(value.slice(0, -1)) };
  return { count: Number(value), days: null };
}

/** Reads and validates the configuration; throws a readable error for bad values. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.CMS_DATA_DIR);
  const s3 = e.CMS_BLOB_STORE === 's3' ? s3SettingsOf(e) : undefined;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    adminPassword: e.CMS_ADMIN_PASSWORD || undefined,
    seed: e.CMS_SEED,
    maxUploadBytes: e.CMS_MAX_UPLOAD_BYTES,
    maxBodyBytes: e.CMS_MAX_BODY_BYTES,
    thumbnailSize: e.CMS_THUMBNAIL_SIZE,
    maxImagePixels: e.CMS_MAX_IMAGE_PIXELS,
    blobStore: e.CMS_BLOB_STORE,
    blobSweepMs: e.CMS_BLOB_SWEEP_HOURS * 3600_000,
    blobDir: path.resolve(e.CMS_BLOB_DIR ?? path.join(dataDir, 'blobs')),
    ...(s3 ? { s3 } : {}),
    dbPoolSize: e.CMS_DB_POOL_SIZE,
    sessionIdleMs: e.CMS_SESSION_IDLE_MINUTES * 60_000,
    sessionAbsoluteMs: e.CMS_SESSION_ABSOLUTE_HOURS * 3_600_000,
    cookieSecure: e.CMS_COOKIE_SECURE,
    webDir: path.resolve(e.CMS_WEB_DIR),
    logLevel: e.LOG_LEVEL,
    responseCache: e.CMS_RESPONSE_CACHE === 'on',
    responseCacheBytes: Math.floor(e.CMS_RESPONSE_CACHE_MB * MiB),
    responseCacheMaxAgeMs: e.CMS_RESPONSE_CACHE_MAX_AGE_S * 1000,
    leaseMs: e.CMS_LEASE_SECONDS * 1000,
    revisionsKeep: revisionsKeepOf(e.CMS_REVISIONS_KEEP),
    scheduleMs: Math.round(e.CMS_SCHEDULE_SECONDS * 1000),
    trashDays: e.CMS_TRASH_DAYS,
    searchRankLimit: e.CMS_SEARCH_RANK_LIMIT,
  };
}

/** The S3 settings, checked: a bucket is required, and credentials come as a pair or not at all. */
function s3SettingsOf(e: z.infer<typeof EnvSchema>): S3Settings {
  const problems: string[] = [];
  if (!e.CMS_S3_BUCKET) problems.push('  CMS_S3_BUCKET: required when CMS_BLOB_STORE=s3');
  if (!!e.CMS_S3_ACCESS_KEY_ID !== !!e.CMS_S3_SECRET_ACCESS_KEY) {
    problems.push(
      '  CMS_S3_ACCESS_KEY_ID and CMS_S3_SECRET_ACCESS_KEY: set both, or neither for the AWS default chain',
    );
  }
  if (e.CMS_S3_PREFIX.startsWith('/')) problems.push('  CMS_S3_PREFIX: must not start with "/"');
  if (problems.length) throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    bucket: e.CMS_S3_BUCKET!,
    endpoint: e.CMS_S3_ENDPOINT,
    region: e.CMS_S3_REGION,
    accessKeyId: e.CMS_S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: e.CMS_S3_SECRET_ACCESS_KEY || undefined,
    prefix: e.CMS_S3_PREFIX,
    // S3-compatible services (MinIO, Ceph…) mostly need path-style addressing; AWS prefers virtual hosts.
    forcePathStyle: e.CMS_S3_FORCE_PATH_STYLE ?? !!e.CMS_S3_ENDPOINT,
    partSize: e.CMS_S3_PART_SIZE_MIB * MiB,
    queueSize: e.CMS_S3_UPLOAD_CONCURRENCY,
  };
}
