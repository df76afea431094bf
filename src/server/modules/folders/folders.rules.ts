import type { Kysely } from 'kysely';
import { ASSET_LIBRARY } from '../../../shared/api/paths.js';
import {
  canContain as canContainKind,
  isContainerKind,
  isNavigationKind,
  type Realm,
} from '../../../shared/tree/rules.js';
import type { DB, NodeKind } from '../../db/schema.js';
import { conflict, notFound, type AppError } from '../../lib/errors.js';
import { treeRepository as tree, type NodeRow } from '../tree/tree.repository.js';

export type { Realm } from '../../../shared/tree/rules.js';

export const realmOf = (segments: readonly string[]): Realm => (segments[0] === ASSET_LIBRARY ? 'assets' : 'site');

/** Kinds that hold other items. */
export const isContainer = (k: NodeKind) => isContainerKind(k);

/** Kinds listed in `subsections`, ordered by `sort_order`. */
export const isNavigation = (k: NodeKind) => isNavigationKind(k);

/** Kinds the folders endpoints read, write and delete (pages and assets have their own). */
export const isFolderLike = (k: NodeKind) => isContainer(k) || k === 'sectionlink' || k === 'externallink';

/** What may live where: the shared rule (src/shared/tree/rules.ts), which the admin app applies too. */
export const canContain = (parent: NodeKind, realm: Realm, child: NodeKind) => canContainKind(parent, realm, child);

const WORDS: Record<NodeKind, string> = {
  root: 'root',
  library: 'asset library',
  site: 'site',
  folder: 'folder',
  section: 'section',
  sectionlink: 'section link',
  externallink: 'external link',
  page: 'page',
  asset: 'asset',
};

/** "a section", "an asset". */
export const aKind = (k: NodeKind) => (/^[aeiou]/.test(WORDS[k]) ? `an ${WORDS[k]}` : `a ${WORDS[k]}`);

/** `"a/b/c"` for messages. */
export const quotePath = (segments: readonly string[]) => `"${segments.join('/')}"`;

/** 404 for a path of which only the first `found` segments exist. */
export function missingError(segments: readonly string[], found: number): AppError {
  if (found === 0 && segments[0] !== ASSET_LIBRARY) {
    return notFound('SITE_NOT_FOUND', `No site named "${segments[0]}".`);
  }
  return notFound('FOLDER_NOT_FOUND', `No folder ${quotePath(segments.slice(0, found + 1))}.`);
}

/** The chain of an existing item; 404 SITE_NOT_FOUND / FOLDER_NOT_FOUND / NOT_FOUND naming what is missing. */
export async function locateItem(db: Kysely<DB>, segments: readonly string[]): Promise<NodeRow[]> {
  const { chain, found } = await tree.resolve(db, segments);
  if (found === segments.length) return chain;
  if (found === segments.length - 1 && found > 0) {
    const parent = chain[found - 1]!;
    if (isContainer(parent.kind)) {
      throw notFound('NOT_FOUND', `Nothing named "${segments[found]}" in ${quotePath(segments.slice(0, found))}.`);
    }
  }
  throw missingError(segments, found);
}

/** The chain of an existing site, folder, section, link or asset folder; 404 FOLDER_NOT_FOUND for pages and assets. */
export async function locateFolder(db: Kysely<DB>, segments: readonly string[]): Promise<NodeRow[]> {
  const { chain, found } = await tree.resolve(db, segments);
  if (found < segments.length) throw missingError(segments, found);
  const node = chain[chain.length - 1]!;
  if (!isFolderLike(node.kind)) {
    throw notFound('FOLDER_NOT_FOUND', `${quotePath(segments)} is ${aKind(node.kind)}, not a folder.`);
  }
  return chain;
}

/** The chain of an existing container a move or copy goes into; 409 INVALID_MOVE when it holds nothing. */
export async function locateContainer(db: Kysely<DB>, segments: readonly string[]): Promise<NodeRow[]> {
  const { chain, found } = await tree.resolve(db, segments);
  if (found < segments.length) throw missingError(segments, found);
  const node = chain[chain.length - 1]!;
  if (!isContainer(node.kind)) {
    throw conflict(
      'INVALID_MOVE',
      `${quotePath(segments)} is ${aKind(node.kind)}; items go into sites, sections and folders.`,
    );
  }
  return chain;
}

/** True when `node` (the last of `chain`) is the landing page of the site or section holding it. */
export function isLandingPage(chain: readonly NodeRow[]): boolean {
  const node = chain[chain.length - 1]!;
  const parent = chain[chain.length - 2];
  return node.kind === 'page' && !!parent && parent.landing_page_id === node.id;
}

/**
 * Locks the row of an item found earlier in the transaction and answers it fresh; 404 when a concurrent request
 * deleted it in between (PostgreSQL: the lock waits for that request to commit).
 */
export async function lockFound(db: Kysely<DB>, node: NodeRow, segments: readonly string[]): Promise<NodeRow> {
  const row = await tree.lock(db, node.id);
  if (!row) throw notFound('FOLDER_NOT_FOUND', `${quotePath(segments)} was deleted meanwhile.`);
  return row;
}
