import type { Kysely } from 'kysely';
import { ItemName } from '../../../shared/api/common.js';
import type { Page, PageCalendar, PageCode, PagePutBody } from '../../../shared/api/pages.js';
import { splitPath } from '../../../shared/api/paths.js';
import { DEFAULT_WORKFLOW } from '../../../shared/api/workflow.js';
import { isPostgres } from '../../db/dialect.js';
import { allOf } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';
import { isoTime, tryProvingWrite, type Actor, type ActorClaim, type AppContext } from '../../lib/context.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { assertIfMatch, assertPreconditions, lostCreateRace, type Preconditions } from '../../lib/etag.js';
import { workflowAfterWrite } from '../../lib/workflow.js';
import { templateRegionsOf } from '../templates/templates.presenter.js';
import { templatesRepository, type TemplateRow } from '../templates/templates.repository.js';
import { requireAccess } from '../tree/access.js';
import type { NodeRow } from '../tree/tree.repository.js';
import { applyBody } from './page-body.js';
import {
  docBodyJson,
  docOf,
  docPathOf,
  docWithBody,
  headJsonOf,
  loadParts,
  representationOf,
  trustedDoc,
  viewOf,
  type PageAt,
  type PageParts,
  type PageRepresentation,
} from './page-docs.js';
import { isPagePath, locatePage, type PageLocation } from './page-location.js';
import { insertPageRecord } from './page-records.js';
import { calendarOf, codeOf, presentPage, rowMembersOf, seoOf, workflowOf } from './pages.presenter.js';
import { nextSeq } from '../../lib/remembered.js';
import { createPageMemory, type RememberedPage } from './page-memory.js';
import { epochsUnchanged, pagesRepository as repo, type PageDocRow, type PageRow } from './pages.repository.js';

/** The answer of a PUT: the page as stored, and which regions a template switch dropped. */
export interface PagePutResult extends PageRepresentation {
  created: boolean;
  /** Set when the PUT switched the template (possibly empty). */
  droppedRegions?: string[];
  /** The response body: the page JSON, with `droppedRegions` when set. */
  responseJson: string;
  /**
   * Set when the write bumped the change generation in its own statement, or wrote nothing: the request needs no
   * bump after it (`request.changeGenerationBumpedInStatement()`).
   */
  generationBumped?: true;
}

/** The page's content without its workflow and widget ids: what "the content changed" compares. */
function contentSignature(page: Page): string {
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
function fieldsEdit(headJson: string, edited: PageRow, patch: Partial<PageRow>, name: string) {
  const editedHead = Object.keys(patch).length ? headJsonOf(edited, name) : headJson;
  return { editedHead, contentChanged: editedHead !== headJson };
}

/** The head of `edited` after the workflow's patch: made again only when that moved the workflow it shows. */
function headAfterWorkflow(editedHead: string, edited: PageRow, rowPatch: Partial<PageRow>, name: string): string {
  const final = { ...edited, ...rowPatch };
  return JSON.stringify(workflowOf(final)) === JSON.stringify(workflowOf(edited))
    ? editedHead
    : headJsonOf(final, name);
}

/** Milliseconds of a page date (`YYYY-MM-DD` or ISO date-time, also with a `+0000` offset). */
function timeOf(date: string): number {
  return Date.parse(date.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
}

/** The template named `name` (404 TEMPLATE_NOT_FOUND when there is none); `known` when already read. */
async function loadTemplate(db: Kysely<DB>, name: string, known?: TemplateRow): Promise<TemplateRow> {
  const template = known?.name === name ? known : await templatesRepository.find(db, name);
  if (!template) throw notFound('TEMPLATE_NOT_FOUND', `No template named "${name}".`);
  return template;
}

/** 409 when `name`, `siteName` or `folderPath` of the body differ from the URL. */
function assertLocation(body: PagePutBody, segments: readonly string[]): void {
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
function patchFields(page: PageRow, body: PagePutBody): Partial<PageRow> {
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

const atOf = (loc: PageLocation, id: string): PageAt => ({
  id,
  name: loc.name,
  siteName: loc.siteName,
  folderPath: loc.folderPath,
});

/**
 * The page as it is before a write: from its trusted doc when there is one (nothing else is read), otherwise
 * assembled from its rows (and those parts are kept for the rest of the write).
 */
async function pageBefore(trx: Kysely<DB>, at: PageAt, row: PageDocRow) {
  const doc = trustedDoc(row);
  if (doc !== null) {
    const rep = representationOf(at, doc);
    return { page: JSON.parse(rep.json) as Page, parts: undefined, ...rep };
  }
  const parts = await loadParts(trx, at.id, row.template_name);
  const page = presentPage(viewOf(at, row, parts));
  return { page, parts, ...representationOf(at, docOf(page)) };
}

/**
 * The end of every page write: the workflow after it (a content change of a Public page moves it to Quick Edit,
 * checks it out, …), and the row's patch with its modification time when anything changed.
 */
function workflowAfterEdit(w: {
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

/** Page writes: create or update by path (fields, body regions, template switch, workflow), and delete. */
export function createPageWrites(
  ctx: AppContext,
  findPage: (
    db: Kysely<DB>,
    segments: readonly string[],
  ) => Promise<{ loc: PageLocation; node: NodeRow; chain: NodeRow[] }>,
) {
  /** Creates the page at `loc` (nothing is there yet): its id and fresh row. */
  async function create(trx: Kysely<DB>, actor: Actor, loc: PageLocation, body: PagePutBody, pre: Preconditions) {
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

  /** Pages this process last read or wrote by path (page-memory.ts): their next fields-only PUT is one statement. */
  const memory = createPageMemory();

  /**
   * An edit of fields only (no body, same template) of a page with a trusted doc, as one read and one write and no
   * transaction — or the write alone, from the page as this process last read or wrote it at this path. The read
   * is the path, the row and its doc in one statement (on SQLite through the read-only connection); the write is
   * one `UPDATE` of the row and its doc on condition that `doc_seq` and the page-doc and folder-doc epochs are
   * still those read. The path is stored with the doc: it was read in the same snapshot as the epochs. Undefined
   * when it does not apply or another write came in between: the transactional way then does it (and checks
   * everything again). Throws what that way would for access and preconditions — from a fresh read only: whatever
   * the remembered page would answer but a write (an error, a write of nothing) is decided again on a fresh read.
   *
   * The `UPDATE` also bumps the change generation (on PostgreSQL; the result says so), and with a `claim` it writes
   * only if the user row still holds the claimed password hash and role, which proves the claim.
   */
  async function putFieldsNow(
    actor: Actor,
    segments: readonly string[],
    body: PagePutBody,
    pre: Preconditions,
    ts: string,
    claim: ActorClaim | undefined,
  ): Promise<{ answer: PagePutResult; wrote: boolean } | undefined> {
    const path = docPathOf(segments);
    if (path === undefined || body.body !== undefined) return undefined;
    const remembered = memory.get(path);
    if (remembered) {
      const written = await putFieldsOf(remembered, true, actor, segments, path, body, pre, ts, claim).catch(
        () => undefined,
      );
      if (written) return written;
      memory.forget(path);
    }
    const { readNow } = ctx.database;
    const found = readNow ? repo.docByPathNow(ctx.db, readNow, segments) : await repo.docByPath(ctx.db, segments);
    if (!found?.row) return undefined;
    return putFieldsOf(found as RememberedPage, false, actor, segments, path, body, pre, ts, claim);
  }

  /** putFieldsNow's edit of the page `found` at `path` (`remembered`: from memory, so nothing but a write counts). */
  async function putFieldsOf(
    found: RememberedPage,
    remembered: boolean,
    actor: Actor,
    segments: readonly string[],
    path: string,
    body: PagePutBody,
    pre: Preconditions,
    ts: string,
    claim: ActorClaim | undefined,
  ): Promise<{ answer: PagePutResult; wrote: boolean } | undefined> {
    const { row } = found;
    if (!isPagePath(found.chain.map((n) => n?.kind))) return undefined;
    const doc = trustedDoc(row);
    if (doc === null || body.templateName !== row.template_name) return undefined;
    requireAccess(actor, found.chain as NodeRow[], 'WRITE', 'pages here');
    const name = segments[segments.length - 1]!;
    const at: PageAt = { id: row.node_id, name, siteName: segments[0]!, folderPath: segments.slice(1, -1).join('/') };
    if (pre.ifMatch !== undefined || pre.ifNoneMatch !== undefined) {
      // The ETag stored with the doc's path is the page's ETag there (migration 0090 keeps the two together).
      const etag = row.doc_path === path && row.doc_etag !== null ? row.doc_etag : representationOf(at, doc).etag;
      assertPreconditions(pre, etag, `The page "${name}"`);
    }
    if (body.id !== undefined && body.id !== row.node_id) {
      throw conflict(
        'ID_MISMATCH',
        `The body's id "${body.id}" is not the id of the page at the URL (${row.node_id}).`,
      );
    }
    // Fields only: the body stays as it is, so the new doc is the row's new head and the stored body, unparsed.
    const headJson = found.headJson ?? headJsonOf(row, name);
    const bodyJson = found.bodyJson ?? docBodyJson(doc, headJson);
    if (bodyJson === null) return undefined;
    const patch = patchFields(row, body);
    const edited: PageRow = { ...row, ...patch };
    const { editedHead, contentChanged } = fieldsEdit(headJson, edited, patch, name);
    const rowPatch = workflowAfterEdit({ edited, patch, contentChanged, created: false, body, actor, ts });
    const newHead = headAfterWorkflow(editedHead, edited, rowPatch, name);
    const newDoc = docWithBody(newHead, bodyJson);
    const rep = representationOf(at, newDoc);
    const result = { ...rep, created: false, responseJson: rep.json, generationBumped: true as const };
    if (!Object.keys(rowPatch).length && newDoc === doc) {
      // Nothing to write: a remembered page is read afresh (and nothing proved a claimed actor: tryProvingWrite).
      if (remembered) return undefined;
      memory.set(path, found);
      return { answer: result, wrote: false };
    }
    const stamp = { path, etag: rep.etag };
    const wrote = await repo.updatePageAndDoc(
      ctx.db,
      row.node_id,
      rowPatch,
      newDoc,
      found.current_epoch,
      stamp,
      row.doc_path,
      row.doc_seq,
      allOf(epochsUnchanged(found.current_epoch, found.current_folder_epoch), claim?.proof),
    );
    if (wrote === 0n) return undefined;
    const seq = nextSeq(row.doc_seq);
    memory.set(path, {
      ...found,
      doc: newDoc,
      doc_epoch: found.current_epoch,
      doc_seq: seq,
      headJson: newHead,
      bodyJson,
      row: {
        ...row,
        ...patch,
        ...rowPatch,
        doc: newDoc,
        doc_epoch: found.current_epoch,
        doc_seq: seq,
        doc_path: path,
        doc_etag: rep.etag,
      },
    });
    return { answer: result, wrote: true };
  }

  return {
    /**
     * Creates the page when nothing is at the URL, otherwise updates the fields sent; body regions, template
     * switch and workflow moves included. One transaction: everything changes, or nothing. An edit of fields
     * only, on a page with a trusted doc, reads nothing but the row and writes the row and its doc in one
     * statement.
     */
    async put(
      actor: Actor,
      segments: readonly string[],
      /** As the route's schema parsed it (PagePutBody). */
      body: PagePutBody,
      pre: Preconditions = {},
      /**
       * When `actor` is taken on trust: the one-statement write proves it, any other way confirms it first. The
       * put answers only once it was proven or confirmed; an error it throws leaves that to the caller.
       */
      claim?: ActorClaim,
    ): Promise<PagePutResult> {
      assertLocation(body, segments);
      if (body.workflow?.name !== undefined && body.workflow.name !== DEFAULT_WORKFLOW) {
        throw badRequest(`Pages follow the "${DEFAULT_WORKFLOW}".`, [
          { path: 'body.workflow.name', message: `must be "${DEFAULT_WORKFLOW}"` },
        ]);
      }
      const now = ctx.now();
      const ts = isoTime(now);
      const quick = await tryProvingWrite(claim, () => putFieldsNow(actor, segments, body, pre, ts, claim));
      if (quick) return quick;
      // The write did not prove a claimed actor (another way, a lost race, or the claim failed): confirm it.
      if (claim) actor = await claim.confirm();
      return ctx.db.transaction().execute(async (trx) => {
        const loc = await locatePage(trx, segments);
        if (loc.occupant && loc.occupant.kind !== 'page') {
          throw conflict('NAME_TAKEN', `"${loc.name}" here is a ${loc.occupant.kind}, not a page.`);
        }
        requireAccess(
          actor,
          loc.occupant ? [...loc.parentChain, loc.occupant] : loc.parentChain,
          'WRITE',
          'pages here',
        );

        let id: string;
        let row: PageDocRow;
        let before: Awaited<ReturnType<typeof pageBefore>> | undefined;
        const created = !loc.occupant;
        if (!loc.occupant) {
          ({ id, row } = await create(trx, actor, loc, body, pre));
        } else {
          id = loc.occupant.id;
          const locked = await repo.lockPageDoc(trx, id);
          if (!locked) throw notFound('PAGE_NOT_FOUND', `No page "${loc.name}".`);
          row = locked;
          before = await pageBefore(trx, atOf(loc, id), locked);
          assertPreconditions(pre, before.etag, `The page "${loc.name}"`);
          if (body.id !== undefined && body.id !== id) {
            throw conflict('ID_MISMATCH', `The body's id "${body.id}" is not the id of the page at the URL (${id}).`);
          }
        }
        const at = atOf(loc, id);
        const switching = body.templateName !== row.template_name;
        const patch: Partial<PageRow> = {
          ...patchFields(row, body),
          ...(switching ? { template_name: body.templateName } : {}),
        };
        const edited: PageRow = { ...row, ...patch };

        let after: Page;
        let droppedRegions: string[] | undefined;
        let contentChanged: boolean;
        if (before && !body.body && !switching) {
          // Fields only: the body and template stay as they are, so the page changes in its row's members alone
          // (and its content changed when they did).
          after = { ...before.page, ...rowMembersOf(edited, loc.name) };
          ({ contentChanged } = fieldsEdit(headJsonOf(row, loc.name), edited, patch, loc.name));
        } else {
          // Body regions or a template switch: widgets are written, then the page is presented from its parts.
          const parts: PageParts | undefined = before?.parts;
          const template = await loadTemplate(trx, body.templateName, parts?.template);
          const templateRegions = templateRegionsOf(template);
          let widgets = parts?.widgets ?? (await repo.widgets(trx, id));
          const widgetsBefore = widgets;
          if (body.body) {
            await applyBody(
              { trx, actor, now, pageId: id, templateName: body.templateName, templateRegions, widgets },
              body.body,
            );
            widgets = await repo.widgets(trx, id);
          }
          if (switching) {
            // Content of regions the new template also has (editable) stays; the rest goes.
            const oldRegions = before ? before.page.body.map((r) => r.name) : [];
            const editable = new Set(templateRegions.filter((r) => r.editable).map((r) => r.name));
            const gone = widgets.filter((w) => !editable.has(w.region));
            // Named by where the content was before: the regions of widgets the body deleted count too.
            const kept = new Set(widgets.filter((w) => editable.has(w.region)).map((w) => w.id));
            const regions = [...new Set(widgetsBefore.filter((w) => !kept.has(w.id)).map((w) => w.region))];
            const order = (r: string) => (oldRegions.includes(r) ? oldRegions.indexOf(r) : oldRegions.length);
            droppedRegions = regions.sort((a, b) => order(a) - order(b) || a.localeCompare(b));
            await repo.deleteWidgets(
              trx,
              gone.map((w) => w.id),
            );
            widgets = widgets.filter((w) => editable.has(w.region));
          }
          const afterParts = await loadParts(trx, id, edited.template_name, {
            template,
            widgets,
            ...(parts ? { assetFolderPaths: parts.assetFolderPaths } : {}),
          });
          after = presentPage(viewOf(at, edited, afterParts));
          contentChanged = !before || contentSignature(before.page) !== contentSignature(after);
        }

        const rowPatch = workflowAfterEdit({ edited, patch, contentChanged, created, body, actor, ts });
        after = { ...after, workflow: workflowOf({ ...edited, ...rowPatch }) };
        const doc = docOf(after);
        const rep = representationOf(at, doc);
        // The fields sent, the workflow's changes and the new doc in one statement (none when nothing changed and
        // the stored doc is already this one). On SQLite the transaction is one snapshot, so the path walked above
        // is where the page is under the epoch read with its row: the path is stored with the doc. PostgreSQL
        // reads each statement afresh: the next GET stores it.
        if (Object.keys(rowPatch).length || trustedDoc(row) !== doc) {
          const path = isPostgres(trx) ? undefined : docPathOf(segments);
          const stored = path === undefined ? null : { path, etag: rep.etag };
          await repo.updatePageAndDoc(trx, id, rowPatch, doc, row.current_epoch, stored, row.doc_path);
        }

        const responseJson = switching && droppedRegions ? JSON.stringify({ ...after, droppedRegions }) : rep.json;
        return { ...rep, created, droppedRegions: switching ? droppedRegions : undefined, responseJson };
      });
    },

    /** Deletes the page and its local assets (shared assets stay). A site's or section's landing page stays. */
    async remove(actor: Actor, segments: readonly string[], ifMatch?: string): Promise<void> {
      await ctx.db.transaction().execute(async (trx) => {
        const { loc, node, chain } = await findPage(trx, segments);
        requireAccess(actor, chain, 'WRITE', 'this page');
        const locked = await repo.lockPageDoc(trx, node.id);
        if (!locked) throw notFound('PAGE_NOT_FOUND', `No page "${loc.name}".`);
        if (ifMatch !== undefined) assertIfMatch(ifMatch, (await pageBefore(trx, atOf(loc, node.id), locked)).etag);
        if (await repo.isLandingPage(trx, node.id)) {
          throw conflict(
            'CONFLICT',
            `"${loc.name}" is the landing page of its site or section: it goes when the section is deleted.`,
          );
        }
        await repo.deleteNode(trx, node.id);
      });
    },
  };
}
