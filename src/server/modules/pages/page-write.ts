import type { Kysely } from 'kysely';
import type { Page, PagePutBody } from '../../../shared/api/pages.js';
import { DEFAULT_WORKFLOW } from '../../../shared/api/workflow.js';
import { isPostgres } from '../../db/dialect.js';
import { allOf } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';
import { deletion, recordChanges } from '../../lib/change-log.js';
import { isoTime, type Actor, type ActorClaim, type AppContext, type WriteScope } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { assertIfMatch, assertPreconditions, headerNamesEtag, type Preconditions } from '../../lib/etag.js';
import { templateRegionsOf } from '../templates/templates.presenter.js';
import { templatesRepository, type TemplateRow } from '../templates/templates.repository.js';
import { requireAccess } from '../tree/access.js';
import type { NodeRow } from '../tree/tree.repository.js';
import { applyBody } from './page-body.js';
import { createPage } from './page-create.js';
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
import { presentPage, rowMembersOf, workflowOf } from './pages.presenter.js';
import { deleteUnreferencedBlobs, trashItem } from '../trash/trash-records.js';
import { nextSeq } from '../../lib/remembered.js';
import {
  assertLocation,
  contentSignature,
  fieldsEdit,
  headAfterWorkflow,
  ifMatchEtag,
  atOf,
  pageBefore,
  patchFields,
  workflowAfterEdit,
} from './page-edit.js';
import { createGuardedWrites, type Guarded } from '../../lib/guarded-write.js';
import { assertLeaseFree, dropLeases, writeLeaseOfWrite } from '../leases/lease-records.js';
import {
  epochsUnchanged,
  pagesRepository as repo,
  type PageDocByPath,
  type PageDocRow,
  type PageRow,
} from './pages.repository.js';

/**
 * A page path as last read or written by this process: what a fields-only PUT needs of it (a row, a path) and,
 * after a write, its doc split at the body (`headJson` + `bodyJson` is the row's doc; page-docs.ts docWithBody).
 */
export type RememberedPage = PageDocByPath & { row: PageDocRow; headJson?: string; bodyJson?: string };

/**
 * How many pages a process remembers (each a row with its doc, a few kB): the next fields-only PUT of one (an
 * editor saving again) is one statement, conditional on everything the remembered row was trusted under (the row's
 * `doc_seq`, the page-doc and folder-doc epochs; lib/guarded-write.ts).
 */
export const REMEMBERED_PAGES = 1000;

/** The answer of a PUT: the page as stored, and which regions a template switch dropped. */
export interface PagePutResult extends PageRepresentation {
  created: boolean;
  /** Set when the PUT switched the template (possibly empty). */
  droppedRegions?: string[];
  /** The response body: the page JSON, with `droppedRegions` when set. */
  responseJson: string;
}

/** The template named `name` (404 TEMPLATE_NOT_FOUND when there is none); `known` when already read. */
async function loadTemplate(db: Kysely<DB>, name: string, known?: TemplateRow): Promise<TemplateRow> {
  const template = known?.name === name ? known : await templatesRepository.find(db, name);
  if (!template) throw notFound('TEMPLATE_NOT_FOUND', `No template named "${name}".`);
  return template;
}

/** Page writes: create or update by path (fields, body regions, template switch, workflow), and delete. */
export function createPageWrites(
  ctx: AppContext,
  findPage: (
    db: Kysely<DB>,
    segments: readonly string[],
  ) => Promise<{ loc: PageLocation; node: NodeRow; chain: NodeRow[] }>,
) {
  /**
   * Pages this process last read or wrote by path (REMEMBERED_PAGES): their next fields-only PUT is one statement.
   * The write of a page with a trusted doc, fields only (no body, same template), takes one read and one write
   * and no transaction (guarded-write.ts) — or the write alone, from the page as this process last read or wrote
   * it at this path. The read is the path, the row and its doc in one statement (on SQLite through the read-only
   * connection); the write is one `UPDATE` of the row and its doc on condition that `doc_seq` and the page-doc
   * and folder-doc epochs are still those read. The path is stored with the doc: it was read in the same snapshot
   * as the epochs. The `UPDATE` also bumps the change generation (on PostgreSQL).
   */
  const guardedWrite = createGuardedWrites<RememberedPage>(REMEMBERED_PAGES);

  /**
   * The guarded write's edit of the page `found` at `path`: undefined when it is not for this way or the
   * condition failed; throws what the transactional way would for access and preconditions.
   */
  async function putFieldsOf(
    found: RememberedPage,
    actor: Actor,
    segments: readonly string[],
    path: string,
    body: PagePutBody,
    pre: Preconditions,
    ts: string,
    claim: ActorClaim | undefined,
  ): Promise<Guarded<RememberedPage, PagePutResult> | undefined> {
    const { row } = found;
    if (!isPagePath(found.chain.map((n) => n?.kind))) return undefined;
    const doc = trustedDoc(row);
    if (doc === null || body.templateName !== row.template_name) return undefined;
    // A page checked out by someone else, or a check-out or in: the transactional way checks and writes the lease.
    if (row.checked_out_user !== '' && row.checked_out_user !== actor.username) return undefined;
    if (body.workflow?.checkedOut !== undefined) return undefined;
    requireAccess(actor, found.chain as NodeRow[], 'WRITE', 'pages here');
    const name = segments[segments.length - 1]!;
    const at: PageAt = { id: row.node_id, name, siteName: segments[0]!, folderPath: segments.slice(1, -1).join('/') };
    if (pre.ifMatch !== undefined || pre.ifNoneMatch !== undefined) {
      // The ETag stored with the doc's path is the page's ETag there (migration 0090 keeps the two together).
      const etag = row.doc_path === path && row.doc_etag !== null ? row.doc_etag : representationOf(at, doc).etag;
      // The holder's If-Match from before they took the lease: the transactional way accepts it.
      if (row.checked_out !== 0 && pre.ifMatch !== undefined && !headerNamesEtag(pre.ifMatch, etag)) return undefined;
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
    const answer = { ...rep, created: false, responseJson: rep.json };
    if (!Object.keys(rowPatch).length && newDoc === doc) return { answer, wrote: false, remember: found };
    const stamp = { path, etag: rep.etag };
    const revision = Number(row.revision) + 1;
    const wrote = await repo.updatePageAndDoc(
      ctx.db,
      row.node_id,
      { ...rowPatch, revision },
      newDoc,
      found.current_epoch,
      stamp,
      row.doc_path,
      row.doc_seq,
      allOf(epochsUnchanged(found.current_epoch, found.current_folder_epoch), claim?.proof),
    );
    if (wrote === 0n) return undefined;
    const seq = nextSeq(row.doc_seq);
    const remember: RememberedPage = {
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
        revision,
        doc: newDoc,
        doc_epoch: found.current_epoch,
        doc_seq: seq,
        doc_path: path,
        doc_etag: rep.etag,
      },
    };
    return { answer, wrote: true, remember };
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
       * When `actor` is taken on trust (its claim): the one-statement write proves it, any other way confirms it
       * first. The put answers only once it was proven or confirmed; an error it throws leaves that to the caller.
       */
      scope?: WriteScope,
    ): Promise<PagePutResult> {
      const claim = scope?.claim;
      assertLocation(body, segments);
      if (body.workflow?.name !== undefined && body.workflow.name !== DEFAULT_WORKFLOW) {
        throw badRequest(`Pages follow the "${DEFAULT_WORKFLOW}".`, [
          { path: 'body.workflow.name', message: `must be "${DEFAULT_WORKFLOW}"` },
        ]);
      }
      const now = ctx.now();
      const ts = isoTime(now);
      const path = docPathOf(segments);
      if (path !== undefined && body.body === undefined) {
        const quick = await guardedWrite(
          path,
          scope,
          async () => {
            const found = await repo.docByPath(ctx.db, segments, { now: ctx.database.readNow });
            return found?.row ? (found as RememberedPage) : undefined;
          },
          (found) => putFieldsOf(found, actor, segments, path, body, pre, ts, claim),
        );
        if (quick) return quick;
      }
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
          ({ id, row } = await createPage(ctx, trx, actor, loc, body, pre));
        } else {
          id = loc.occupant.id;
          const locked = await repo.findPageDoc(trx, id, { lock: true });
          if (!locked) throw notFound('PAGE_NOT_FOUND', `No page "${loc.name}".`);
          row = locked;
          await assertLeaseFree(trx, 'page', id, row.checked_out_user, actor, now);
          before = await pageBefore(trx, atOf(loc, id), locked);
          const etag = ifMatchEtag(pre.ifMatch, atOf(loc, id), before, actor.username);
          assertPreconditions(pre, etag, `The page "${loc.name}"`);
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
        // A change or a creation is a revision (migration 0280); a stale doc stored again is not.
        const changed = created || Object.keys(rowPatch).length > 0;
        if (changed || trustedDoc(row) !== doc) {
          const path = isPostgres(trx) ? undefined : docPathOf(segments);
          const stored = path === undefined ? null : { path, etag: rep.etag };
          const patch = changed ? { ...rowPatch, revision: Number(row.revision) + 1 } : rowPatch;
          await repo.updatePageAndDoc(trx, id, patch, doc, row.current_epoch, stored, row.doc_path);
        }
        const lease = { kind: 'page' as const, id, segments };
        await writeLeaseOfWrite(trx, lease, actor.username, body.workflow?.checkedOut, now, ctx.config.leaseMs);
        const responseJson = switching && droppedRegions ? JSON.stringify({ ...after, droppedRegions }) : rep.json;
        return { ...rep, created, droppedRegions: switching ? droppedRegions : undefined, responseJson };
      });
    },

    /**
     * Moves the page with its local assets to the trash (shared assets stay), or with `purge` (admins) deletes it
     * for good; answers the trash entry's id (null when purged). A site's or section's landing page stays.
     */
    async remove(
      actor: Actor,
      segments: readonly string[],
      opts: { ifMatch?: string; purge?: boolean } = {},
    ): Promise<string | null> {
      const { ifMatch } = opts;
      const trashed = await ctx.db.transaction().execute(async (trx) => {
        const { loc, node, chain } = await findPage(trx, segments);
        requireAccess(actor, chain, 'WRITE', 'this page');
        const locked = await repo.findPageDoc(trx, node.id, { lock: true });
        if (!locked) throw notFound('PAGE_NOT_FOUND', `No page "${loc.name}".`);
        await assertLeaseFree(trx, 'page', node.id, locked.checked_out_user, actor, ctx.now());
        if (ifMatch !== undefined) {
          const before = await pageBefore(trx, atOf(loc, node.id), locked);
          assertIfMatch(ifMatch, ifMatchEtag(ifMatch, atOf(loc, node.id), before, actor.username));
        }
        if (await repo.isLandingPage(trx, node.id)) {
          throw conflict(
            'CONFLICT',
            `"${loc.name}" is the landing page of its site or section: it goes when the section is deleted.`,
          );
        }
        const at = ctx.now();
        const item = { id: node.id, kind: 'page', parentId: node.parent_id!, segments };
        const done = await trashItem(trx, item, actor, isoTime(at), opts.purge);
        await recordChanges(trx, [deletion('page', node.id, segments, actor.username, at)]);
        await dropLeases(trx, 'page', node.id);
        return done;
      });
      await deleteUnreferencedBlobs(ctx, trashed.blobKeys);
      return trashed.trashId;
    },
  };
}
