import { z } from 'zod';
import { Message } from '../../../shared/api/common.js';
import { PurgeQuery, TrashedMessage } from '../../../shared/api/trash.js';
import {
  BULK_PAGE_OPERATIONS,
  Page,
  PagePutBody,
  PagePutResponse,
  type BulkPageOperation,
} from '../../../shared/api/pages.js';
import { VersionQuery } from '../../../shared/api/revisions.js';
import { TransitionsResponse } from '../../../shared/api/workflow.js';
import { actorOf, type App, ifMatchOf, problems } from '../../lib/http.js';
import { answerJson } from '../../lib/respond.js';
import { itemPathOf, answerByPath, writeByPath, type VersionRead } from '../tree/paths.js';
import type { PagesService } from './pages.service.js';
import { trashedMessage } from '../trash/trash.presenter.js';

const PathParams = z.object({ '*': z.string() });

/** Pages by path, their workflow transitions, and the bulk workflow operations over a folder. */
export function registerPagesRoutes(app: App, pages: PagesService, versionOf?: VersionRead) {
  app.get(
    '/cms/rest/pages/by-path/*',
    {
      config: {
        cache: true,
        provesActor: true,
      },
      schema: {
        tags: ['pages'],
        summary: 'Get a page: every field of 2.1, body regions in template order (strong ETag)',
        description:
          'The page at the path: its fields, SEO, calendar and code settings, workflow state and the widgets of ' +
          'each body region in template order. The `ETag` answered is what PUT and DELETE take as `If-Match`. ' +
          '`?revision=N` answers the page as it was at revision N (byte for byte what a GET answered then); ' +
          '`?version=live` its live revision (404 NO_LIVE_REVISION when none is).',
        params: PathParams,
        querystring: VersionQuery,
        response: { 200: Page, ...problems(400, 403, 404) },
      },
    },
    (request, reply) => answerByPath<Page>(request, reply, pages.get, versionOf),
  );

  app.put(
    '/cms/rest/pages/by-path/*',
    {
      config: { provesActor: true },
      schema: {
        tags: ['pages'],
        summary: 'Create a page (`templateName` is enough) or update the fields and regions sent',
        description:
          'Nested objects (`seo`, `calendar`, `code`, `workflow`) change only the members sent; `body` changes only ' +
          'the regions sent. `workflow.state` walks the Default Workflow to that state (409 INVALID_TRANSITION ' +
          'naming the states it can reach). A switch of `templateName` answers `droppedRegions`: the regions the ' +
          'new template has no editable region for. `name`, `folderPath` and `id` must match the URL (409); ' +
          "`If-Match` names the page's ETag (412 when stale).",
        params: PathParams,
        body: PagePutBody,
        response: { 200: PagePutResponse, 201: PagePutResponse, ...problems(403, 404, 409, 412) },
      },
    },
    async (request, reply) => {
      const r = await writeByPath(request, pages.put);
      return answerJson<PagePutResponse>(reply, { json: r.responseJson, etag: r.etag }, r.created ? 201 : 200);
    },
  );

  app.delete(
    '/cms/rest/pages/by-path/*',
    {
      schema: {
        tags: ['pages'],
        summary: 'Delete a page with its local assets to the trash; shared assets stay (If-Match honoured)',
        description:
          'Moves the page and the local assets its widgets own to the trash (`trashId` names the entry: ' +
          '`POST /cms/rest/trash/restore` puts it back); shared assets of the library stay. `purge=true` ' +
          "(admins) deletes it for good. A page that is a section's landing page is refused (409). `If-Match` " +
          "names the page's ETag (412 when stale).",
        params: PathParams,
        querystring: PurgeQuery,
        response: { 200: TrashedMessage, ...problems(400, 403, 404, 409, 412) },
      },
    },
    async (request, reply) => {
      const trashId = await pages.remove(actorOf(request), itemPathOf(request), {
        ifMatch: ifMatchOf(request),
        purge: request.query.purge === 'true',
      });
      return answerJson<TrashedMessage>(reply, { value: trashedMessage(trashId) });
    },
  );

  app.get(
    '/cms/rest/pages/transitions/*',
    {
      schema: {
        tags: ['pages'],
        summary: 'The workflow transitions the caller may take on a page now',
        description:
          "The Default Workflow transitions (name and the state each leads to) that the caller's role and " +
          "access allow from the page's state now. A PUT with `workflow.state` takes one.",
        params: PathParams,
        response: { 200: TransitionsResponse, ...problems(403, 404) },
      },
    },
    async (request, reply) =>
      answerJson<TransitionsResponse>(reply, { value: await pages.transitions(actorOf(request), itemPathOf(request)) }),
  );

  for (const operation of Object.keys(BULK_PAGE_OPERATIONS) as BulkPageOperation[]) {
    const { transition } = BULK_PAGE_OPERATIONS[operation];
    app.post(
      `/cms/rest/pages/${operation}/*`,
      {
        schema: {
          tags: ['pages'],
          summary: `${transition} every page below a site, folder or section that it applies to (one transaction)`,
          description:
            `Takes the ${transition} transition on each page below the item that is in a state it leads from and ` +
            'that the caller may change, in one transaction' +
            (operation === 'approve-all' ? ' (archived pages stay archived: approve those one by one)' : '') +
            '; the others are left as they are. The message says how many changed.',
          params: PathParams,
          response: { 200: Message, ...problems(403, 404) },
        },
      },
      async (request, reply) =>
        answerJson<Message>(reply, { value: await pages.bulk(actorOf(request), operation, itemPathOf(request)) }),
    );
  }
}
