import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, expect } from 'vitest';
import { Folder, type FolderPutBody } from '../../../shared/api/folders.js';
import { folderHref, splitPath } from '../../../shared/api/paths.js';
import { nextId } from '../../db/dialect.js';
import { SYSTEM_ACTOR } from '../../lib/context.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { ensureAssetFolder, insertAssetRecord } from '../assets/asset-records.js';
import { insertPageRecord } from '../pages/page-records.js';
import { treeRepository } from '../tree/tree.repository.js';

/** Test factories of the folders module: templates, sites, sections, folders, links, pages, assets. */

/**
 * A fresh test app for each test of the file, with the templates `basic` and `landing` (registers beforeEach and
 * afterEach); call the answer for the current test's app.
 */
export function useFolderTestApp(): () => TestApp {
  let t: TestApp | undefined;
  beforeEach(async () => {
    t = await createTestApp();
    await createTemplate(t, 'basic');
    await createTemplate(t, 'landing');
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  return () => t!;
}

/** The folder resource of a by-path path (`site/a/b`). */
export const folderUrl = (path: string) => folderHref(splitPath(path));

/** Inserts a template row directly (the templates module is not needed to test folders). */
export async function createTemplate(
  t: TestApp,
  name = 'basic',
  regions: { name: string; editable: boolean }[] = [{ name: 'main', editable: true }],
): Promise<void> {
  const ts = new Date().toISOString();
  await t.app.folio.ctx.db
    .insertInto('templates')
    .values({
      name,
      label: name,
      description: `${name} template`,
      regions: JSON.stringify(regions.map((r) => ({ ...r, widgets: [] }))),
      created_at: ts,
      updated_at: ts,
    })
    .execute();
  await wroteBehindTheApi(t);
}

export function putFolder(
  t: TestApp,
  path: string,
  body?: FolderPutBody | Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.request({ method: 'PUT', url: folderUrl(path), ...(body === undefined ? {} : { payload: body }), headers });
}

/** GET of a folder, checked against the contract; answers the parsed folder and the response. */
export async function getFolder(t: TestApp, path: string, headers: Record<string, string> = {}) {
  const res = await t.request({ method: 'GET', url: folderUrl(path), headers });
  const folder = res.statusCode === 200 ? Folder.strict().parse(res.json()) : undefined;
  return { res, folder: folder as Folder };
}

async function expectCreated(res: LightMyRequestResponse, what: string): Promise<Folder> {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(201);
  return Folder.parse(res.json());
}

export async function createSite(t: TestApp, name: string, sectionInfo: Record<string, unknown> = {}) {
  return expectCreated(
    await putFolder(t, name, { siteName: name, sectionInfo: { templateName: 'basic', ...sectionInfo } }),
    `site ${name}`,
  );
}

export async function createSection(t: TestApp, path: string, sectionInfo: Record<string, unknown> = {}) {
  return expectCreated(await putFolder(t, path, { sectionInfo: { displayTitle: path, ...sectionInfo } }), path);
}

export async function createFolder(t: TestApp, path: string) {
  return expectCreated(await putFolder(t, path, {}), path);
}

export async function createExternalLink(t: TestApp, path: string, url = 'https://example.com/') {
  return expectCreated(
    await putFolder(t, path, { sectionInfo: { type: 'externallink', externalLinkUrl: url, displayTitle: path } }),
    path,
  );
}

export async function createSectionLink(t: TestApp, path: string, targetPath: string) {
  return expectCreated(
    await putFolder(t, path, { sectionInfo: { type: 'sectionlink', linkTarget: { href: folderUrl(targetPath) } } }),
    path,
  );
}

/** Creates a page (through the shared page factory) in the container at `folderPath`; answers its id. */
export async function createPage(t: TestApp, folderPath: string, name: string, templateName = 'basic') {
  const db = t.app.folio.ctx.db;
  const { chain } = await treeRepository.resolve(db, splitPath(folderPath));
  const id = await db.transaction().execute((trx) =>
    insertPageRecord(trx, {
      parentId: chain[chain.length - 1]!.id,
      name,
      templateName,
      actor: SYSTEM_ACTOR,
      now: Date.now(),
    }),
  );
  await wroteBehindTheApi(t);
  return id;
}

/**
 * A write straight to the database must bump the change generation, as the API does after every write:
 * otherwise the response cache may keep answering what was there before (PostgreSQL; SQLite notices commits).
 */
async function wroteBehindTheApi(t: TestApp) {
  await t.app.folio.ctx.generation.bump();
}

/** Adds a widget to a page: local fields, or a link to a shared asset. */
export async function addWidget(t: TestApp, pageId: string, w: { fields?: object; sharedAssetId?: string }) {
  const db = t.app.folio.ctx.db;
  const id = await nextId(db, 'widget');
  await db
    .insertInto('widgets')
    .values({
      id,
      page_id: pageId,
      region: 'main',
      position: 0,
      type: w.sharedAssetId ? 'cmsImage' : 'cmsRichText',
      scope: 'local',
      editable: 1,
      fields: w.fields ? JSON.stringify(w.fields) : null,
      shared_asset_id: w.sharedAssetId ?? null,
    })
    .execute();
  await wroteBehindTheApi(t);
  return id;
}

/** Creates an asset at `Assets/…/name` (folders on the way); with `bytes`, a binary asset with a blob. */
export async function createAsset(t: TestApp, folderPath: string, name: string, bytes?: Buffer) {
  const { db, blobs } = t.app.folio.ctx;
  const blob = bytes ? await blobs.put(Readable.from([bytes])) : undefined;
  const thumb = bytes ? await blobs.put(Readable.from([Buffer.from('thumb')])) : undefined;
  const id = await db.transaction().execute(async (trx) => {
    const chain = await ensureAssetFolder(trx, splitPath(folderPath), Date.now());
    return insertAssetRecord(trx, {
      folderId: chain[chain.length - 1]!.id,
      name,
      type: bytes ? 'cmsFileAsset' : 'cmsRichTextAsset',
      fields: bytes ? { displaytitle: name, filename: name } : { text: `<p>${name}</p>` },
      actor: SYSTEM_ACTOR,
      now: Date.now(),
      blob: blob && { key: blob.key, size: blob.size, sha256: blob.sha256, contentType: 'application/octet-stream' },
      thumbBlobKey: thumb?.key ?? null,
      folder: splitPath(folderPath),
    });
  });
  await wroteBehindTheApi(t);
  return { id, blobKey: blob?.key, thumbKey: thumb?.key };
}

/** Everything the tree holds (not id counters), to show that a refused request changed nothing. */
export async function snapshot(t: TestApp) {
  const db = t.app.folio.ctx.db;
  const [nodes, pages, widgets, assets] = await Promise.all([
    db.selectFrom('nodes').selectAll().orderBy('id').execute(),
    db.selectFrom('pages').selectAll().orderBy('node_id').execute(),
    db.selectFrom('widgets').selectAll().orderBy('id').execute(),
    db.selectFrom('assets').selectAll().orderBy('node_id').execute(),
  ]);
  return { nodes, pages, widgets, assets };
}

/** Every blob key in the store. */
export async function blobKeys(t: TestApp): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of t.app.folio.ctx.blobs.keys()) keys.push(k);
  return keys.sort();
}
