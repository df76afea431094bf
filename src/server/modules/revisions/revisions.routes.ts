import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AssetMetadata } from '../../../shared/api/assets.js';
import { Page } from '../../../shared/api/pages.js';
import {
  RestoreBody,
  RevisionList,
  RevisionListQuery,
  VersionQuery,
  type RevisionKind,
} from '../../../shared/api/revisions.js';
import { actorOf, type App, ifMatchOf, problems } from '../../lib/http.js';
import { answerJson } from '../../lib/respond.js';
import { itemPathOf, type VersionRead } from '../tree/paths.js';
import type { RevisionsService } from './revisions.service.js';

const PathParams = z.object({ '*': z.string() });
const WHAT = { pages: 'page', assets: 'asset' } as const;

/**
 * History routes of pages and assets (`/cms/rest/{pages|assets}/revisions/*` and `/restore/*`). Answers the reads
 * of other versions that the by-path GETs hand over (`?revision=N`, `?version=live`), one per kind.
 */
export function registerRevisionsRoutes(app: App, revisions: RevisionsService): Record<RevisionKind, VersionRead> {
  for (const kind of ['pages', 'assets'] as const) {
    const what = WHAT[kind];
    app.get(
      `/cms/rest/${kind}/revisions/*`,
      {
        schema: {
          tags: [kind],
          summary: `The revisions of a ${what}, newest first (cursor paging)`,
          description:
            `Every successful write of the ${what} (PUT, workflow move${kind === 'assets' ? ', upload, replace' : ''}, ` +
            'restore) is a revision: its number, when, who, the workflow state after it, and whether it is the ' +
            'live one (the last approved, until archived). Pass `next` as `cursor` for the following page.',
          params: PathParams,
          querystring: RevisionListQuery,
          response: { 200: RevisionList, ...problems(400, 403, 404) },
        },
      },
      async (request, reply) =>
        answerJson<RevisionList>(reply, {
          value: await revisions.list(actorOf(request), kind, itemPathOf(request), request.query as RevisionListQuery),
        }),
    );

    app.post(
      `/cms/rest/${kind}/restore/*`,
      {
        schema: {
          tags: [kind],
          summary: `Make a revision's content the ${what}'s current content (a new revision)`,
          description:
            `Writes the ${what} as it was at \`revision\`, as a new revision, with the access, check-out and ` +
            'workflow rules of a PUT (a Public item goes to Quick Edit). `If-Match` names the current ETag (412 ' +
            'when stale). ' +
            (kind === 'pages'
              ? 'The shared assets the revision links must still exist (409 RESTORE_ASSETS_MISSING names them).'
              : 'A binary asset gets its file back as well.'),
          params: PathParams,
          body: RestoreBody,
          response: {
            200: kind === 'pages' ? Page : AssetMetadata,
            ...problems(400, 403, 404, 409, 412),
          },
        },
      },
      async (request, reply) => {
        const answer = await revisions.restore(
          actorOf(request),
          kind,
          itemPathOf(request),
          request.body as RestoreBody,
          { ifMatch: ifMatchOf(request) },
        );
        return answerJson(reply, answer);
      },
    );
  }

  const versionOf =
    (kind: RevisionKind): VersionRead =>
    async (request: FastifyRequest) => {
      // The read takes no claim to prove: a claimed caller is confirmed first (plugins/claim-check.ts).
      const actor = request.actorClaim ? await request.actorClaim.confirm() : actorOf(request);
      return revisions.version(actor, kind, itemPathOf(request), request.query as VersionQuery);
    };
  return { pages: versionOf('pages'), assets: versionOf('assets') };
}
