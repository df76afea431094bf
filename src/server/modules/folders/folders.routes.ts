import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ChildrenQuery,
  CopyBody,
  FindQuery,
  FindResult,
  Folder,
  FolderChildren,
  FolderContents,
  FolderPutBody,
  ItemKind,
  MoveBody,
  RenameBody,
  TreeItem,
} from '../../../shared/api/folders.js';
import { SiteList, type SiteSummary } from '../../../shared/api/sites.js';
import { badRequest } from '../../lib/errors.js';
import { actorOf, type App, headerOf, ifMatchOf, problems } from '../../lib/http.js';
import { answerJson } from '../../lib/respond.js';
import { itemPathOf, answerByPath, writeByPath } from '../tree/paths.js';
import type { FoldersService } from './folders.service.js';
import { trashedMessage } from '../trash/trash.presenter.js';
import { PurgeParam, TrashedMessage } from '../../../shared/api/trash.js';

const CHILDREN_BY_PATH = '/cms/rest/folders/children/by-path/';
const WildcardParams = z.object({ '*': z.string() });

const IncludeSubFolders = z
  .string()
  // `true` or `false` in any case, as one pattern so that the OpenAPI document states it.
  .regex(/^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$/, 'must be "true" or "false"')
  .optional()
  .describe(
    '`true` deletes a non-empty item with everything inside; `false` (the default) refuses it (409). Any case; ' +
      'also accepted as a request header.',
  );

/** `includeSubFolders` from the query or a request header: `true`/`false` in any case; anything else is a 400. */
function includeSubFoldersOf(request: FastifyRequest, query: string | undefined): boolean {
  const raw = query ?? headerOf(request, 'includesubfolders');
  if (raw === undefined) return false;
  if (/^true$/i.test(raw.trim())) return true;
  if (/^false$/i.test(raw.trim())) return false;
  throw badRequest(
    'includeSubFolders must be true or false.',
    [{ path: 'includeSubFolders', message: 'must be "true" or "false"' }],
    'INVALID_PARAMETER',
  );
}

/**
 * Sites, folders, sections and links by path (spec 4.2), asset library folders (`Assets/…`), the site list,
 * find by name, and move/copy/rename of any item.
 */
export function registerFoldersRoutes(app: App, folders: FoldersService) {
  app.get(
    '/cms/rest/sites',
    {
      config: { cache: true },
      schema: {
        tags: ['folders'],
        summary: 'Every site the caller may read',
        description:
          "Each site's id, name, display title and address, by name; sites the caller may not read are left " + 'out.',
        response: { 200: SiteList, ...problems() },
      },
    },
    async (request, reply) => answerJson<SiteSummary[]>(reply, { value: await folders.listSites(actorOf(request)) }),
  );

  app.get(
    '/cms/rest/folders/find',
    {
      schema: {
        tags: ['folders'],
        summary: 'Find sites, sections, links, folders, pages and assets whose name contains q (any case)',
        description:
          'Up to `limit` items whose name or title (display name, display title) contains `q`, ' +
          'case-insensitively, among those the caller may read; `kind` keeps only the kinds listed. Each answer ' +
          'has its by-path path and address.',
        querystring: FindQuery,
        response: { 200: FindResult, ...problems() },
      },
    },
    async (request, reply) => {
      const { q, limit, kind } = request.query;
      const kinds = kind?.split(',').map((k) => ItemKind.parse(k));
      return answerJson<TreeItem[]>(reply, { value: await folders.find(actorOf(request), q, { limit, kinds }) });
    },
  );

  app.get(
    '/cms/rest/folders/by-path/*',
    {
      config: {
        cache: true,
        provesActor: true,
      },
      schema: {
        tags: ['folders'],
        summary: 'Get a site, folder, section, section link, external link or asset folder (strong ETag)',
        description:
          'The item at the path as the interface shows it: a site (`siteName` set), a folder, a section ' +
          '(`sectionInfo`), a section link or an external link (`sectionInfo.type`), or an asset folder below ' +
          '`Assets/`. The `ETag` answered is what PUT and DELETE take as `If-Match`.',
        params: WildcardParams,
        response: { 200: Folder, ...problems(403, 404) },
      },
    },
    (request, reply) => answerByPath<Folder>(request, reply, folders.get),
  );

  app.get(
    '/cms/rest/folders/contents/by-path/*',
    {
      schema: {
        tags: ['folders'],
        summary:
          'What deleting a site, folder, section, link or asset folder would remove: items below it by kind, ' +
          'section links and widgets elsewhere that go with it, and whether includeSubFolders is needed',
        description:
          'Read it before a DELETE: counts of the items below by kind, the section links and widgets elsewhere ' +
          'that would go with it, and whether the DELETE needs `includeSubFolders=true`.',
        params: WildcardParams,
        response: { 200: FolderContents, ...problems(403, 404) },
      },
    },
    async (request, reply) =>
      answerJson<FolderContents>(reply, { value: await folders.contents(actorOf(request), itemPathOf(request)) }),
  );

  app.get(
    `${CHILDREN_BY_PATH}*`,
    {
      config: { cache: true },
      schema: {
        tags: ['folders'],
        summary:
          'The children of a site, section, folder or asset folder as a table shows them: name, kind, title, ' +
          'workflow state, when and by whom last changed (strong ETag)',
        description:
          "One row per child, for the admin app's tables and trees; the `ETag` changes whenever a row would. " +
          '`kind` keeps only children of those kinds (`folder`: the subfolders of a folder of many assets); ' +
          "`accessLevel` is the caller's on the container, as its own GET says.",
        params: WildcardParams,
        querystring: ChildrenQuery,
        response: { 200: FolderChildren, ...problems(400, 403, 404) },
      },
    },
    async (request, reply) => {
      const kinds = request.query.kind?.split(',').map((k) => ItemKind.parse(k));
      const value = await folders.children(actorOf(request), itemPathOf(request), kinds);
      return answerJson<FolderChildren>(reply, { value });
    },
  );

  app.put(
    '/cms/rest/folders/by-path/*',
    {
      schema: {
        tags: ['folders'],
        summary: 'Create (201) or update (200) a site, folder, section, section link, external link or asset folder',
        description:
          'Only the fields sent change; new `subfolders`/`subsections` entries create children. `name`, ' +
          '`siteName` and `folderPath` must match the URL (409 LOCATION_MISMATCH). ' +
          "`If-Match` names the item's ETag (412 when stale); `If-None-Match: *` only creates.",
        params: WildcardParams,
        body: FolderPutBody.nullable().optional(),
        response: { 200: Folder, 201: Folder, ...problems(403, 404, 409, 412) },
      },
      config: { provesActor: true },
    },
    async (request, reply) => {
      const r = await writeByPath(request, folders.put);
      return answerJson<Folder>(reply, r, r.created ? 201 : 200);
    },
  );

  app.delete(
    '/cms/rest/folders/by-path/*',
    {
      schema: {
        tags: ['folders'],
        summary: 'Delete a site, folder, section, link or asset folder to the trash',
        description:
          'A non-empty item needs `includeSubFolders=true` (query or header; 409 FOLDER_NOT_EMPTY otherwise), ' +
          'then goes to the trash with everything below it in one transaction (`trashId` names the entry: ' +
          '`POST /cms/rest/trash/restore` puts it back); `purge=true` (admins) deletes it for good. ' +
          "GET …/folders/contents/by-path tells first what would go. `If-Match` names the item's ETag (412 when " +
          'stale).',
        params: WildcardParams,
        querystring: z.object({ includeSubFolders: IncludeSubFolders, purge: PurgeParam }),
        response: { 200: TrashedMessage, ...problems(400, 403, 404, 409, 412) },
      },
    },
    async (request, reply) => {
      const trashId = await folders.remove(actorOf(request), itemPathOf(request), {
        includeSubFolders: includeSubFoldersOf(request, request.query.includeSubFolders),
        ifMatch: ifMatchOf(request),
        purge: request.query.purge === 'true',
      });
      return answerJson<TrashedMessage>(reply, { value: trashedMessage(trashId) });
    },
  );

  app.post(
    '/cms/rest/folders/move',
    {
      schema: {
        tags: ['folders'],
        summary: 'Move a folder, section, link, page, asset or asset folder into another container (If-Match honoured)',
        description:
          'Moves the item at `itemPath`, with everything below it, into the container at `targetFolderPath`; it ' +
          'keeps its id. 409 INVALID_MOVE for what cannot go there (another realm, a kind the target does not ' +
          'hold, a site, a landing page, the asset library) and NAME_TAKEN when the target holds that name; ' +
          "`If-Match` names the item's ETag (412 when stale).",
        body: MoveBody,
        response: { 200: TreeItem, ...problems(403, 404, 409, 412) },
      },
    },
    async (request, reply) =>
      answerJson<TreeItem>(reply, { value: await folders.move(actorOf(request), request.body, ifMatchOf(request)) }),
  );

  app.post(
    '/cms/rest/folders/copy',
    {
      schema: {
        tags: ['folders'],
        summary: 'Copy an item with everything below it into a container; a taken name becomes <name>-copy[-N]',
        description:
          'Copies the item at `itemPath` with everything below it (pages with their widgets, assets with their ' +
          'files; shared assets stay linked) into the container at `targetFolderPath`. The copies get new ids ' +
          'and start as Drafts; answers the new item (201).',
        body: CopyBody,
        response: { 201: TreeItem, ...problems(403, 404, 409) },
      },
    },
    async (request, reply) =>
      answerJson<TreeItem>(reply, { value: await folders.copy(actorOf(request), request.body) }, 201),
  );

  app.post(
    '/cms/rest/folders/rename',
    {
      schema: {
        tags: ['folders'],
        summary: 'Rename a site, folder, section, link, page, asset or asset folder (If-Match honoured)',
        description:
          'Gives the item at `path` the name `newName` in the same container; it keeps its id. 409 NAME_TAKEN ' +
          "when a sibling has that name; `If-Match` names the item's ETag (412 when stale).",
        body: RenameBody,
        response: { 200: TreeItem, ...problems(403, 404, 409, 412) },
      },
    },
    async (request, reply) =>
      answerJson<TreeItem>(reply, { value: await folders.rename(actorOf(request), request.body, ifMatchOf(request)) }),
  );
}
