import { DeletedMessage } from '../../../shared/api/common.js';
import {
  TrashIdParams,
  TrashList,
  TrashListQuery,
  TrashRestoreBody,
  TrashRestored,
} from '../../../shared/api/trash.js';
import { actorOf, type App, problems } from '../../lib/http.js';
import { answerJson } from '../../lib/respond.js';
import type { TrashService } from './trash.service.js';

/** The trash: `GET /cms/rest/trash`, `POST /cms/rest/trash/restore`, `DELETE /cms/rest/trash/{id}` (admins). */
export function registerTrashRoutes(app: App, trash: TrashService) {
  app.get(
    '/cms/rest/trash',
    {
      schema: {
        tags: ['trash'],
        summary: 'What is in the trash, newest first (cursor paging)',
        description:
          'Deleted pages, assets and folder items with everything that was inside them: what, where from, who ' +
          'and when, and when it is purged (`CMS_TRASH_DAYS` after the delete). Admins see every entry; Editors ' +
          'and Contributors those they may restore (they may write where the item was, or they deleted it and ' +
          'that place is gone); Viewers none (403). Pass `next` as `cursor` for the following page.',
        querystring: TrashListQuery,
        response: { 200: TrashList, ...problems(400, 403) },
      },
    },
    async (request, reply) =>
      answerJson<TrashList>(reply, {
        value: await trash.list(actorOf(request), request.query as TrashListQuery),
      }),
  );

  app.post(
    '/cms/rest/trash/restore',
    {
      schema: {
        tags: ['trash'],
        summary: 'Put a deleted item back where it was, or into the container at `to`',
        description:
          'Restores the item with everything that was inside it, its id and its history. 409 NAME_TAKEN when ' +
          'something else has its name there now; 409 RESTORE_PLACE_GONE when the container it was in is gone: ' +
          '`to` (a site, section or folder path; an asset folder for assets) puts it elsewhere.',
        body: TrashRestoreBody,
        response: { 200: TrashRestored, ...problems(400, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      answerJson<TrashRestored>(reply, {
        value: await trash.restore(actorOf(request), request.body as TrashRestoreBody),
      }),
  );

  app.delete(
    '/cms/rest/trash/:id',
    {
      schema: {
        tags: ['trash'],
        summary: 'Delete a trashed item for good (admins)',
        description:
          'Deletes the item, everything inside it, its history and the files nothing else refers to. Admins only.',
        params: TrashIdParams,
        response: { 200: DeletedMessage, ...problems(400, 403, 404) },
      },
    },
    async (request, reply) => {
      await trash.purge(actorOf(request), (request.params as { id: string }).id);
      return answerJson<DeletedMessage>(reply, { value: { message: 'Deleted' } });
    },
  );
}
