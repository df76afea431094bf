import type { Kysely } from 'kysely';
import { ItemName } from '../../../shared/api/common.js';
import type { PagePutBody } from '../../../shared/api/pages.js';
import type { DB } from '../../db/schema.js';
import type { Actor, AppContext } from '../../lib/context.js';
import { AppError, badRequest, conflict } from '../../lib/errors.js';
import { assertPreconditions, lostCreateRace, type Preconditions } from '../../lib/etag.js';
import type { PageLocation } from './page-location.js';
import { insertPageRecord } from './page-records.js';
import { pagesRepository as repo } from './pages.repository.js';

/**
 * The create path of a PUT (page-write.ts), inside its transaction: nothing is at `loc`, so the page is created
 * there — its id and fresh row. The rest of the PUT (body regions, workflow, the doc) is the same as an update's.
 * A precondition that needs a page there fails (412), an id sent is refused (409 `ID_MISMATCH`), an invalid name
 * is a 400; a concurrent PUT that created the name first is the race lost (lib/etag.ts `lostCreateRace`).
 */
export async function createPage(
  ctx: AppContext,
  trx: Kysely<DB>,
  actor: Actor,
  loc: PageLocation,
  body: PagePutBody,
  pre: Preconditions,
) {
  assertPreconditions(pre, null);
  if (body.id !== undefined) throw conflict('ID_MISMATCH', 'A new page gets its id from the service: leave id out.');
  const name = ItemName.safeParse(loc.name);
  if (!name.success) {
    throw badRequest(
      `"${loc.name}" is not a valid page name.`,
      [{ path: 'params.*', message: name.error.issues[0]?.message ?? 'is invalid' }],
      'INVALID_PARAMETER',
    );
  }
  const id = await insertPageRecord(trx, {
    parentId: loc.parentChain[loc.parentChain.length - 1]!.id,
    name: loc.name,
    templateName: body.templateName,
    actor,
    now: ctx.now(),
    displayName: body.displayName,
  }).catch((err: unknown) => {
    // A concurrent PUT created something of this name since locatePage looked.
    if (err instanceof AppError && err.code === 'NAME_TAKEN') throw lostCreateRace(pre, `"${loc.name}"`, err);
    throw err;
  });
  return { id, row: (await repo.findPageDoc(trx, id))! };
}
