import type { Page, PageCalendar, PageCode, PagePutBody } from '../../../shared/api/pages.js';
import { splitPath } from '../../../shared/api/paths.js';
import type { Actor } from '../../lib/context.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { workflowAfterWrite } from '../../lib/workflow.js';
import { etagForIfMatch } from '../../lib/etag.js';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { docOf, headJsonOf, loadParts, representationOf, trustedDoc, viewOf, type PageAt } from './page-docs.js';
import type { PageLocation } from './page-location.js';
import { calendarOf, codeOf, presentPage, seoOf, workflowOf } from './pages.presenter.js';
import type { PageDocRow, PageRow } from './pages.repository.js';

/*
 * What a PUT body does to a page, in memory: its fields patched onto the row, whether the content changed, the
 * workflow after the edit. Both ways of page-write.ts (the guarded write and the transaction) decide with these.
 */

/** The page's content without its workflow and widget ids: what "the content changed" compares. */
export function contentSignature(page: Page): string {
  const { workflow: _workflow, body, ...rest } = page;
  return JSON.stringify({
    ...rest,
    body: body.map((r) => ({ ...r, widgets: r.widgets.map(({ id: _id, ...w }) => w) })),
  });
}

/**
 * A PUT of fields: the head of `edited` (the row with `patch`, the fields sent, applied; `headJson` is the row's
 * head) and whether the page's content changed. It changed exactly when the head did: the fields are members of
 * the head, and the head's others (template, workflow) are still the row's.
 */
export function fieldsEdit(headJson: string, edited: PageRow, patch: Partial<PageRow>, name: string) {
  const editedHead = Object.keys(patch).length ? headJsonOf(edited, name) : headJson;
  return { editedHead, contentChanged: editedHead !== headJson };
}

/** The head of `edited` after the workflow's patch: made again only when that moved the workflow it shows. */
export function headAfterWorkflow(
  editedHead: string,
  edited: PageRow,
  rowPatch: Partial<PageRow>,
  name: string,
): string {
  const final = { ...edited, ...rowPatch };
  return JSON.stringify(workflowOf(final)) === JSON.stringify(workflowOf(edited))
    ? editedHead
    : headJsonOf(final, name);
}

/** Milliseconds of a page date (`YYYY-MM-DD` or ISO date-time, also with a `+0000` offset). */
function timeOf(date: string): number {
  return Date.parse(date.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
}

/** 409 when `name`, `siteName` or `folderPath` of the body differ from the URL. */
export function assertLocation(body: PagePutBody, segments: readonly string[]): void {
  const [siteName, ...rest] = segments;
  const name = rest.pop();
  const folderPath = rest.join('/');
  const wrong: string[] = [];
  if (body.name !== undefined && body.name !== name) wrong.push(`name "${body.name}" (URL: "${name}")`);
  if (body.siteName !== undefined && body.siteName !== siteName) {
    wrong.push(`siteName "${body.siteName}" (URL: "${siteName}")`);
  }
  if (body.folderPath !== undefined && splitPath(body.folderPath).join('/') !== folderPath) {
    wrong.push(`folderPath "${body.folderPath}" (URL: "${folderPath}")`);
  }
  if (wrong.length) {
    throw conflict(
      'LOCATION_MISMATCH',
      `The body does not match the URL: ${wrong.join(', ')}. Move pages with the move endpoint.`,
    );
  }
}

/** Applies the scalar and object fields of the body to the page row (in memory); 400 for inconsistent dates. */
export function patchFields(page: PageRow, body: PagePutBody): Partial<PageRow> {
  const patch: Partial<PageRow> = {};
  if (body.displayName !== undefined) patch.display_name = body.displayName;
  if (body.summary !== undefined) patch.summary = body.summary;
  if (body.overridePostDate !== undefined) patch.override_post_date = body.overridePostDate;
  if (body.seo) {
    const seo = { ...seoOf(page) };
    for (const [k, v] of Object.entries(body.seo)) if (v !== undefined) (seo as Record<string, unknown>)[k] = v;
    patch.seo = JSON.stringify(seo);
  }
  if (body.calendar) {
    const cal: PageCalendar = { ...calendarOf(page) };
    for (const [k, v] of Object.entries(body.calendar)) if (v !== undefined) (cal as Record<string, unknown>)[k] = v;
    if (cal.startDate && cal.endDate && timeOf(cal.endDate) < timeOf(cal.startDate)) {
      throw badRequest('The calendar ends before it starts.', [
        { path: 'body.calendar.endDate', message: 'must not be before startDate' },
      ]);
    }
    patch.calendar = JSON.stringify(cal);
  }
  if (body.code) {
    const code: PageCode = { ...codeOf(page) };
    for (const [k, v] of Object.entries(body.code) as [keyof PageCode, string | null | undefined][]) {
      if (v === undefined) continue;
      if (v === null) delete code[k];
      else code[k] = v;
    }
    patch.code = JSON.stringify(code);
  }
  return patch;
}

/**
 * The end of every page write: the workflow after it (a content change of a Public page moves it to Quick Edit,
 * checks it out, …), and the row's patch with its modification time when anything changed.
 */
export function workflowAfterEdit(w: {
  edited: PageRow;
  patch: Partial<PageRow>;
  contentChanged: boolean;
  created: boolean;
  body: PagePutBody;
  actor: Actor;
  ts: string;
}): Partial<PageRow> {
  // A new page's first content is not an edit: it stays a checked-out Draft unless a state is asked for.
  const workflow = workflowAfterWrite(
    w.edited,
    {
      contentChanged: w.contentChanged && !w.created,
      target: w.body.workflow?.state,
      checkedOut: w.body.workflow?.checkedOut,
      comment: w.body.workflow?.comment,
      now: w.ts,
      schedule: w.body.workflow,
    },
    w.actor,
  );
  const workflowPatch = Object.fromEntries(
    Object.entries(workflow).filter(([k, v]) => w.edited[k as keyof typeof workflow] !== v),
  ) as Partial<PageRow>;
  const touched = w.contentChanged || Object.keys(workflowPatch).length > 0;
  return {
    ...w.patch,
    ...workflowPatch,
    ...(touched ? { updated_at: w.ts, updated_by: w.actor.username } : {}),
  };
}

/**
 * The ETag an `If-Match` of the page `before` (at `at`, with ETag `etag`) is compared with: a lease is not content,
 * so the page's ETag with other check-out fields (free, or held by `username`) is good too (lib/etag.ts etagForIfMatch).
 */
export function ifMatchEtag(
  ifMatch: string | undefined,
  at: PageAt,
  before: { page: Page; etag: string },
  username: string,
): string {
  return etagForIfMatch(ifMatch, before.etag, () =>
    (
      [
        [false, ''],
        [true, username],
      ] as const
    ).map(([checkedOut, checkedOutUser]) => {
      const page = { ...before.page, workflow: { ...before.page.workflow, checkedOut, checkedOutUser } };
      return representationOf(at, docOf(page)).etag;
    }),
  );
}

/** Where the page `id` at `loc` is. */
export const atOf = (loc: PageLocation, id: string): PageAt => ({
  id,
  name: loc.name,
  siteName: loc.siteName,
  folderPath: loc.folderPath,
});

/**
 * The page as it is before a write: from its trusted doc when there is one (nothing else is read), otherwise
 * assembled from its rows (and those parts are kept for the rest of the write).
 */
export async function pageBefore(trx: Kysely<DB>, at: PageAt, row: PageDocRow) {
  const doc = trustedDoc(row);
  if (doc !== null) {
    const rep = representationOf(at, doc);
    return { page: JSON.parse(rep.json) as Page, parts: undefined, ...rep };
  }
  const parts = await loadParts(trx, at.id, row.template_name);
  const page = presentPage(viewOf(at, row, parts));
  return { page, parts, ...representationOf(at, docOf(page)) };
}
