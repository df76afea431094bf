import type { Kysely } from 'kysely';
import type { Folder } from '../../../shared/api/folders.js';
import type { DB } from '../../db/schema.js';
import type { Actor } from '../../lib/context.js';
import { serialise } from '../../lib/respond.js';
import { effectiveAccess } from '../tree/access.js';
import { treeRepository as tree, type NodeRow } from '../tree/tree.repository.js';
import { presentFolder } from './folders.presenter.js';
import { foldersRepository as repo, type ChildRow } from './folders.repository.js';
import { isContainer } from './folders.rules.js';

/** A folder as sent: the object, its exact JSON and that JSON's strong ETag. */
export interface Represented {
  folder: Folder;
  json: string;
  etag: string;
}

/** Conditional request headers of a write. */
export interface Preconditions {
  ifMatch?: string;
  /** `*` (or the current ETag) makes a PUT create-only: 412 when something is there. */
  ifNoneMatch?: string;
}

/** The representation of the item at the end of `chain` for `actor`: the folder, its JSON and ETag. */
export async function represent(
  db: Kysely<DB>,
  actor: Actor,
  chain: readonly NodeRow[],
  segments: readonly string[],
): Promise<Represented> {
  const node = chain[chain.length - 1]!;
  const children = isContainer(node.kind) ? await repo.children(db, node.id) : [];
  const targetIds = linkTargetsOf(node, children);
  const targetPaths = targetIds.length ? await tree.pathsOf(db, targetIds) : new Map<string, string[]>();
  return representWith(actor, chain, segments, children, targetPaths);
}

/** The section-link targets the item's JSON shows the paths of: its own (a section link) and its children's. */
export function linkTargetsOf(node: NodeRow, children: readonly ChildRow[]): string[] {
  const targetIds = children.filter((c) => c.kind === 'sectionlink' && c.link_target_id).map((c) => c.link_target_id!);
  if (node.link_target_id) targetIds.push(node.link_target_id);
  return targetIds;
}

/** `represent` from what it reads: the item's children (none unless a container) and its link targets' paths. */
export function representWith(
  actor: Actor,
  chain: readonly NodeRow[],
  segments: readonly string[],
  children: readonly ChildRow[],
  targetPaths: ReadonlyMap<string, string[]>,
): Represented {
  const node = chain[chain.length - 1]!;
  const folder = presentFolder({ segments, node, accessLevel: effectiveAccess(actor, chain), children, targetPaths });
  return { folder, ...serialise(folder) } satisfies Represented;
}
