import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, isApiError, type Client } from '../../../../shared/api/client';
import type { FolderPutBody, TargetWindow } from '../../../../shared/api/folders';
import { folderHref } from '../../../../shared/api/paths';
import { useApi } from '../../../lib/api';
import { itemAt, type ExplorerItem, type ExplorerKind } from '../../../lib/tree/items';
import { refreshContainer } from './tree-cache';

/** What the create dialogs send, by kind. */
export type NewItem =
  | {
      kind: 'section';
      name: string;
      displayTitle: string;
      templateName: string;
      targetWindow: TargetWindow;
      navClass: string;
    }
  | { kind: 'sectionlink'; name: string; displayTitle: string; targetWindow: TargetWindow; targetPath: string }
  | { kind: 'externallink'; name: string; displayTitle: string; targetWindow: TargetWindow; url: string }
  | { kind: 'folder' | 'assetfolder'; name: string }
  | { kind: 'page'; name: string; displayName: string; templateName: string };

/** The refusal of a name that something in `parent` already has, on the form's name field. */
function nameTaken(parent: ExplorerItem, name: string): ApiError {
  return new ApiError({
    status: 409,
    code: 'NAME_TAKEN',
    title: 'Conflict',
    detail: `Something named "${name}" is already in "${parent.name}". Items in one place need different names.`,
    errors: [{ path: 'body.name', message: 'is already used by another item here' }],
  });
}

/** The folder PUT body that creates an item of the given kind. */
function folderBodyOf(item: Exclude<NewItem, { kind: 'page' }>): FolderPutBody {
  switch (item.kind) {
    case 'section':
      return {
        sectionInfo: {
          displayTitle: item.displayTitle,
          templateName: item.templateName,
          targetWindow: item.targetWindow,
          navClass: item.navClass,
        },
      };
    case 'sectionlink':
      return {
        sectionInfo: {
          type: 'sectionlink',
          displayTitle: item.displayTitle,
          targetWindow: item.targetWindow,
          linkTarget: { href: folderHref(item.targetPath.split('/')) },
        },
      };
    case 'externallink':
      return {
        sectionInfo: {
          type: 'externallink',
          displayTitle: item.displayTitle,
          targetWindow: item.targetWindow,
          externalLinkUrl: item.url,
        },
      };
    default:
      return {};
  }
}

/** Creates the item in `parent`; never overwrites something already there. Answers the new item. */
export async function createItem(client: Client, parent: ExplorerItem, item: NewItem): Promise<ExplorerItem> {
  const segments = [...parent.segments, item.name];
  if (item.kind === 'page') {
    // A page PUT on a taken name would UPDATE that page: look first (the listing names every kind of child).
    const { data } = await client.folders.get(parent.segments);
    const taken = [data.subsections, data.subfolders, data.pages, data.assets].some((list) =>
      list?.some((e) => e.name === item.name),
    );
    if (taken) throw nameTaken(parent, item.name);
    try {
      // Create-only: a page made by someone else since the look above is never updated instead.
      await client.pages.put(
        segments,
        { templateName: item.templateName, displayName: item.displayName },
        { ifNoneMatch: '*' },
      );
    } catch (error) {
      if (isApiError(error, 412) || (isApiError(error, 409) && error.code === 'NAME_TAKEN')) {
        throw nameTaken(parent, item.name);
      }
      throw error;
    }
  } else {
    try {
      // If-None-Match: * makes the PUT create-only.
      await client.folders.put(segments, folderBodyOf(item), { ifNoneMatch: '*' });
    } catch (error) {
      if (isApiError(error, 412) || (isApiError(error, 409) && error.code === 'TYPE_MISMATCH')) {
        throw nameTaken(parent, item.name);
      }
      throw error;
    }
  }
  return itemAt(segments.join('/'), item.kind as ExplorerKind);
}

/** Creates a section, section link, external link, folder or page in a container. */
export function useCreateItem() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ parent, item }: { parent: ExplorerItem; item: NewItem }) => createItem(client, parent, item),
    onSuccess: (_created, { parent }) => refreshContainer(queryClient, parent.path),
    // The dialog shows the error next to the form.
    meta: { errorToast: false },
  });
}
