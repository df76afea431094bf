import { z } from 'zod';
import { DeletedMessage, Message } from '../../../shared/api/common.js';
import {
  BULK_PAGE_OPERATIONS,
  Page,
  PagePutBody,
  PagePutResponse,
  type BulkPageOperation,
} from '../../../shared/api/pages.js';
import { TransitionsResponse } from '../../../shared/api/workflow.js';
import {
  actorOf,
  type App,
  type ByPathRead,
  ifMatchOf,
  preconditionsOf,
  problems,
  withActorClaim,
} from '../../lib/http.js';
import { answerJson } from '../../lib/respond.js';
import { itemPathOf, readByPath } from '../tree/paths.js';
import type { PagesService } from './pages.service.js';

const PathParams = z.object({ '*': z.string() });

/** Pages by path, their workflow transitions, and the bulk workflow operations over a folder. */
export function registerPagesRoutes(app: App, pages: PagesService) {
  const byPath: ByPathRead = { now: pages.getNow, get: pages.get };
  app.get(
    '/cms/rest/pages/by-path/*',
    {
      config: {
        cache: true,
        byPathRead: byPath,
        provesActor: true,
      },
      schema: {
        tags: ['pages'],
        summary: 'Get a page: every field of 2.1, body regions in template order (strong ETag)',
        params: PathParams,
        response: { 200: Page, ...problems(403, 404) },
      },
    },
    async (request, reply) => answerJson<Page>(reply, await readByPath(request, byPath)),
  );

  app.put(
    '/cms/rest/pages/by-path/*',
    {
      config: { provesActor: true },
      schema: {
        tags: ['pages'],
        summary:
          'Create a page ({templateName} is enough) or update the fields and regions sent; workflow.state moves it ' +
          '(If-Match honoured). A template switch answers droppedRegions.',
        params: PathParams,
        body: PagePutBody,
        response: { 200: PagePutResponse, 201: PagePutResponse, ...problems(403, 404, 409, 412) },
      },
    },
    async (request, reply) => {
      const r = await withActorClaim(request, (claim) =>
        pages.put(actorOf(request), itemPathOf(request), request.body, preconditionsOf(request), claim),
      );
      if (r.generationBumped) request.changeGenerationBumpedInStatement();
      return answerJson<PagePutResponse>(reply, { json: r.responseJson, etag: r.etag, status: r.created ? 201 : 200 });
    },
  );

  app.delete(
    '/cms/rest/pages/by-path/*',
    {
      schema: {
        tags: ['pages'],
        summary: 'Delete a page with its local assets; shared assets stay (If-Match honoured)',
        params: PathParams,
        response: { 200: DeletedMessage, ...problems(403, 404, 409, 412) },
      },
    },
    async (request) => {
      await pages.remove(actorOf(request), itemPathOf(request), ifMatchOf(request));
      return { message: 'Deleted' as const };
    },
  );

  app.get(
    '/cms/rest/pages/transitions/*',
    {
      schema: {
        tags: ['pages'],
        summary: 'The workflow transitions the caller may take on a page now',
        params: PathParams,
        response: { 200: TransitionsResponse, ...problems(403, 404) },
      },
    },
    async (request) => pages.transitions(actorOf(request), itemPathOf(request)),
  );

  for (const operation of Object.keys(BULK_PAGE_OPERATIONS) as BulkPageOperation[]) {
    const { transition } = BULK_PAGE_OPERATIONS[operation];
    app.post(
      `/cms/rest/pages/${operation}/*`,
      {
        schema: {
          tags: ['pages'],
          summary: `${transition} every page below a site, folder or section that it applies to (one transaction)`,
          params: PathParams,
          response: { 200: Message, ...problems(403, 404) },
        },
      },
      async (request) => pages.bulk(actorOf(request), operation, itemPathOf(request)),
    );
  }
}
