import type { QueryClient } from '@tanstack/react-query';
import type { Role } from '../../../../shared/api/auth';
import type { AccessLevel } from '../../../../shared/api/folders';
import { cachedFolder } from '../api/tree-cache';
import { parentPathOf, type ExplorerItem } from '../../../lib/tree/items';

/**
 * The access level the user has at `path`, as the service last said for it or for the nearest container above it
 * that was read (a READ restriction applies to everything below). Undefined when nothing on the way was read.
 */
export function accessLevelAt(queryClient: QueryClient, path: string): AccessLevel | undefined {
  for (let p: string | null = path; p !== null; p = parentPathOf(p)) {
    const level = cachedFolder(queryClient, p)?.data.accessLevel;
    if (level) return level;
  }
  return undefined;
}

/**
 * Whether the user may change `item` (or create inside it): never a Viewer; an Editor or Contributor unless the
 * item or a folder above it is read-only for them; an admin always. The service stays the judge — this only keeps
 * what it would refuse from being offered.
 */
export function canChange(queryClient: QueryClient, role: Role, item: ExplorerItem): boolean {
  if (role === 'Viewer') return false;
  if (role === 'Admin') return true;
  const at = item.kind === 'page' ? parentPathOf(item.path) : item.path;
  return at === null || accessLevelAt(queryClient, at) !== 'READ';
}
