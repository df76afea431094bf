import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { LIBRARY_NAME } from '../../db/structure.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { treeRepository, type NodeRow } from '../tree/tree.repository.js';

/** Kinds of nodes that hold pages. */
const CONTAINER_KINDS = new Set(['site', 'folder', 'section']);

/** Where a page path points: the containers from the site down, and whatever is at the page's name. */
export interface PageLocation {
  siteName: string;
  /** Folders between the site and the page, joined by `/` ("" directly in the site). */
  folderPath: string;
  name: string;
  /** The site and the folders/sections down to the page's parent. */
  parentChain: NodeRow[];
  /** The node at the page's name: a page, something else, or nothing yet. */
  occupant: NodeRow | undefined;
}

const invalidPath = (detail: string) =>
  badRequest(detail, [{ path: 'params.*', message: detail }], 'INVALID_PARAMETER');

/**
 * Checks that the first `chain.length` resolved nodes of `segments` are a site and then folders or sections, and
 * that all `segments` resolved: a missing or non-container site is 404 SITE_NOT_FOUND, a missing or non-container
 * folder 404 FOLDER_NOT_FOUND. Missing containers are never invented.
 */
function assertContainers(chain: readonly NodeRow[], segments: readonly string[]): void {
  if (segments[0] === LIBRARY_NAME) {
    throw invalidPath(`"${LIBRARY_NAME}" is the asset library, not a site: pages live in sites.`);
  }
  segments.forEach((name, i) => {
    const node = chain[i];
    if (i === 0) {
      if (!node || node.kind !== 'site') throw notFound('SITE_NOT_FOUND', `No site named "${name}".`);
    } else if (!node) {
      throw notFound('FOLDER_NOT_FOUND', `No folder or section "${name}" in ${segments.slice(0, i).join('/')}.`);
    } else if (!CONTAINER_KINDS.has(node.kind)) {
      throw notFound('FOLDER_NOT_FOUND', `"${segments.slice(0, i + 1).join('/')}" is a ${node.kind}, not a folder.`);
    }
  });
}

/**
 * True when `kinds` (of a resolved path, top first) are a site, then folders or sections, then a page: the path
 * of a page that `locatePage` would find without a 4xx.
 */
export function isPagePath(kinds: readonly (string | undefined)[]): boolean {
  const last = kinds.length - 1;
  return (
    last >= 1 &&
    kinds.every((k, i) =>
      i === 0 ? k === 'site' : i === last ? k === 'page' : k !== undefined && k !== 'site' && CONTAINER_KINDS.has(k),
    )
  );
}

/** Resolves `<site>[/<folder…>]/<page>`: 400 for a path too short or in the asset library, 404 for missing parents. */
export async function locatePage(db: Kysely<DB>, segments: readonly string[]): Promise<PageLocation> {
  if (segments.length < 2) throw invalidPath('A page path is <site>[/<folder path>]/<page name>.');
  const { chain } = await treeRepository.resolve(db, segments);
  const parents = segments.slice(0, -1);
  assertContainers(chain.slice(0, parents.length), parents);
  return {
    siteName: segments[0]!,
    folderPath: segments.slice(1, -1).join('/'),
    name: segments[segments.length - 1]!,
    parentChain: chain.slice(0, parents.length),
    occupant: chain[parents.length],
  };
}

/** Resolves `<site>[/<folder…>]` to its chain of containers (404 when any is missing). */
export async function locateContainer(db: Kysely<DB>, segments: readonly string[]): Promise<NodeRow[]> {
  if (segments.length < 1) throw invalidPath('A folder path is <site>[/<folder path>].');
  const { chain } = await treeRepository.resolve(db, segments);
  assertContainers(chain, segments);
  return chain;
}
