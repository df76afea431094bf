import type { QueryClient } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import type { Folder, FolderPutBody } from '../../../../shared/api/folders';
import type { Page, PagePutBody } from '../../../../shared/api/pages';
import { splitPath } from '../../../../shared/api/paths';
import { folderQueryOptions } from '../../../lib/queries/folders';
import { foldersKeys, pagesKeys, sitesKeys } from '../../../lib/query-keys';
import { isNavigationEntry, itemAt, parentPathOf, type ExplorerItem } from '../../../lib/tree/items';
import { reordered } from './reorder-entries';
import { cachedFolder, forgetSubtree, refreshContainer } from './tree-cache';

/*
 * Undo of the explorer's changes, as plain requests (a toast's Undo runs after the dialog that made the change is
 * gone). Moves and renames go back with the same id; a reorder puts the previous order back; a deleted empty item
 * is made again from what it was (a new id: the service assigns ids).
 */

/** The names of a container's navigation entries in their order, as last read (before a change). */
export function navigationOrderOf(queryClient: QueryClient, path: string | null): string[] | undefined {
  if (path === null) return undefined;
  return cachedFolder(queryClient, path)?.data.subsections?.map((e) => e.name);
}

/** Puts the navigation entries of the container at `path` in the order of `names` (read fresh, with If-Match). */
export async function restoreNavigationOrder(
  client: Client,
  queryClient: QueryClient,
  path: string,
  names: readonly string[],
): Promise<void> {
  const current = await queryClient.fetchQuery({ ...folderQueryOptions(client, path), staleTime: 0 });
  const entries = current.data.subsections ?? [];
  if (entries.map((e) => e.name).join('/') === names.join('/')) return;
  const saved = await client.folders.put(
    splitPath(path),
    { subsections: reordered(entries, names).map(({ name, type, href }) => ({ name, type, href })) },
    { ifMatch: current.etag ?? undefined },
  );
  queryClient.setQueryData(foldersKeys.detail(path), saved);
}

/** The place of an item after a rename or move: refreshes the containers and forgets the old path. */
async function settle(queryClient: QueryClient, from: string, containers: readonly (string | null)[]) {
  forgetSubtree(queryClient, from);
  await Promise.all(containers.map((c) => refreshContainer(queryClient, c)));
}

/** Renames `renamed` back to `original`'s name; answers the item at its old path. */
export async function undoRename(
  client: Client,
  queryClient: QueryClient,
  original: ExplorerItem,
  renamed: ExplorerItem,
): Promise<ExplorerItem> {
  const back = await client.folders.rename({ path: renamed.path, newName: original.name });
  await settle(queryClient, renamed.path, [parentPathOf(renamed.path)]);
  if (original.kind === 'site') await queryClient.invalidateQueries({ queryKey: sitesKeys.all });
  return { ...original, ...itemAt(back.path, original.kind, original.isLandingPage) };
}

/**
 * Moves `moved` back to where `original` was, and puts the navigation order there back as it was (a section or
 * link moved back would otherwise come last). Answers the item at its old path.
 */
export async function undoMove(
  client: Client,
  queryClient: QueryClient,
  original: ExplorerItem,
  moved: ExplorerItem,
  orderBefore: readonly string[] | undefined,
): Promise<ExplorerItem> {
  const home = parentPathOf(original.path)!;
  const back = await client.folders.move({ itemPath: moved.path, targetFolderPath: home });
  if (isNavigationEntry(original.kind) && orderBefore) {
    await restoreNavigationOrder(client, queryClient, home, orderBefore);
  }
  await settle(queryClient, moved.path, [home, parentPathOf(moved.path)]);
  return { ...original, ...itemAt(back.path, original.kind) };
}

/** What a deleted item was, to make it again: its own resource and, for a site or section, its landing page. */
export interface DeletedItem {
  item: ExplorerItem;
  folder?: Folder;
  landingPage?: Page;
  /** The navigation order of its container before the delete (sections and links). */
  orderBefore?: string[];
}

/** True when a landing page holds nothing that making it again from its fields would lose. */
function isPlainLandingPage(page: Page): boolean {
  const hasCode = Object.values(page.code).some((v) => typeof v === 'string' && v.length > 0);
  // The template's own widgets (header, footer) come back with the template; the page's own would not.
  return !hasCode && page.body.every((r) => r.widgets.every((w) => w.scope === 'template'));
}

/**
 * Whether a delete can be undone: an empty folder, section, site or link (nothing but a landing page without
 * content inside), never a page — its content, widgets and history cannot be made again.
 */
export function canUndoDelete(deleted: DeletedItem, isEmpty: boolean): boolean {
  const { item, folder, landingPage } = deleted;
  if (item.kind === 'page' || item.kind === 'library' || !isEmpty || !folder) return false;
  if (item.kind === 'site' || item.kind === 'section') {
    return (
      folder.sectionInfo?.landingPage === undefined || (landingPage !== undefined && isPlainLandingPage(landingPage))
    );
  }
  return true;
}

/** The PUT body that makes a deleted site, section, link or folder again, as it was. */
function bodyOf(item: ExplorerItem, folder: Folder): FolderPutBody {
  const si = folder.sectionInfo;
  const workflow = { workflow: folder.workflow };
  if (!si) return workflow;
  const common = { displayTitle: si.displayTitle, targetWindow: si.targetWindow, navClass: si.navClass };
  switch (item.kind) {
    case 'externallink':
      return { ...workflow, sectionInfo: { ...common, type: 'externallink', externalLinkUrl: si.externalLinkUrl } };
    case 'sectionlink':
      return {
        ...workflow,
        sectionInfo: { ...common, type: 'sectionlink', linkTarget: { href: si.linkTarget?.href ?? '' } },
      };
    default:
      return {
        ...workflow,
        ...(item.kind === 'site' ? { siteName: item.name } : {}),
        sectionInfo: { ...common, templateName: si.templateName },
      };
  }
}

/** The fields of a landing page that a page PUT sets again (never its workflow: a new page starts as a draft). */
function landingPageBodyOf(page: Page): PagePutBody {
  const { browserTitle, hideSearch, tags, categories, metaDescription } = page.seo;
  return {
    templateName: page.templateName,
    displayName: page.displayName,
    summary: page.summary,
    seo: { browserTitle, hideSearch, tags, categories, metaDescription },
    calendar: { startDate: page.calendar.startDate, endDate: page.calendar.endDate },
  };
}

/**
 * Makes a deleted empty item again where it was: its properties, its place in the navigation, its landing page's
 * fields. It gets a new id. Refused (412) when something else took the name meanwhile.
 */
export async function undoDelete(client: Client, queryClient: QueryClient, deleted: DeletedItem): Promise<void> {
  const { item, folder, landingPage, orderBefore } = deleted;
  if (!folder) throw new Error('Nothing to bring back.');
  await client.folders.put(item.segments, bodyOf(item, folder), { ifNoneMatch: '*' });
  const parent = parentPathOf(item.path);
  if (landingPage && folder.sectionInfo?.landingPage) {
    const at = [...item.segments, folder.sectionInfo.landingPage.name];
    await client.pages.put(at, landingPageBodyOf(landingPage));
    queryClient.removeQueries({ queryKey: pagesKeys.detail(at.join('/')) });
  }
  if (parent !== null && isNavigationEntry(item.kind) && orderBefore) {
    await restoreNavigationOrder(client, queryClient, parent, orderBefore);
  }
  await refreshContainer(queryClient, parent);
  if (item.kind === 'site') await queryClient.invalidateQueries({ queryKey: sitesKeys.all });
}
