import type { Kysely } from 'kysely';
import { roleAtLeast } from '../../../shared/api/auth.js';
import { ItemName, type Message } from '../../../shared/api/common.js';
import {
  BULK_PAGE_OPERATIONS,
  PagePutBody,
  type BulkPageOperation,
  type Page,
  type PageCalendar,
  type PageCode,
} from '../../../shared/api/pages.js';
import { splitPath } from '../../../shared/api/paths.js';
import {
  DEFAULT_WORKFLOW,
  TRANSITIONS,
  type TransitionsResponse,
  type WorkflowState,
} from '../../../shared/api/workflow.js';
import type { DB } from '../../db/schema.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { assertIfMatch, assertPreconditions, etagOf, lostCreateRace, type Preconditions } from '../../lib/etag.js';
import { applyTransition, availableTransitions, planTransitions } from '../../lib/workflow.js';
import { templateRegionsOf } from '../templates/templates.presenter.js';
import { templatesRepository, type TemplateRow } from '../templates/templates.repository.js';
import { effectiveAccess, requireAccess } from '../tree/access.js';
import { treeRepository, type NodeRow } from '../tree/tree.repository.js';
import { applyBody } from './page-body.js';
import { locateContainer, locatePage, type PageLocation } from './page-location.js';
import { insertPageRecord } from './page-records.js';
import { calendarOf, codeOf, presentPage, seoOf, type PageView } from './pages.presenter.js';
import { pagesRepository as repo, type PageRow, type SubtreeNode, type WidgetWithAsset } from './pages.repository.js';

/** A page as sent to the client: the object, its exact JSON and the strong ETag of that JSON. */
export interface PageRepresentation {
  page: Page;
  json: string;
  etag: string;
}

/** The answer of a PUT: the page as stored, and which regions a template switch dropped. */
export interface PagePutResult extends PageRepresentation {
  created: boolean;
  /** Set when the PUT switched the template (possibly empty). */
  droppedRegions?: string[];
  /** The response body: the page JSON, with `droppedRegions` when set. */
  responseJson: string;
}

function represent(view: PageView): PageRepresentation {
  const page = presentPage(view);
  const json = JSON.stringify(page);
  return { page, json, etag: etagOf(json) };
}

/** The page's content without its workflow and widget ids: what "the content changed" compares. */
function contentSignature(page: Page): string {
  const { workflow: _workflow, body, ...rest } = page;
  return JSON.stringify({
    ...rest,
    body: body.map((r) => ({ ...r, widgets: r.widgets.map(({ id: _id, ...w }) => w) })),
  });
}

/** Milliseconds of a page date (`YYYY-MM-DD` or ISO date-time, also with a `+0000` offset). */
function timeOf(date: string): number {
  return Date.parse(date.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
}

/** What a page shows besides its own row: its template (undefined when gone), widgets and their asset folders. */
interface PageParts {
  template: TemplateRow | undefined;
  widgets: readonly WidgetWithAsset[];
  assetFolderPaths: Map<string, string>;
}

/**
 * Reads the parts of page `id` inside `db`; `known` supplies parts already read in the same transaction (and
 * asset folder paths already resolved), which are not read again.
 */
async function loadParts(
  db: Kysely<DB>,
  id: string,
  templateName: string,
  known: { template?: TemplateRow; widgets?: readonly WidgetWithAsset[]; assetFolderPaths?: Map<string, string> } = {},
): Promise<PageParts> {
  const template = known.template ?? (await templatesRepository.find(db, templateName));
  const widgets = known.widgets ?? (await repo.widgets(db, id));
  const assetFolderPaths = new Map<string, string>();
  for (const w of widgets) {
    const folderId = w.asset_parent_id;
    if (!folderId || assetFolderPaths.has(folderId)) continue;
    const path = known.assetFolderPaths?.get(folderId) ?? ((await treeRepository.pathOf(db, folderId)) ?? []).join('/');
    assetFolderPaths.set(folderId, path);
  }
  return { template, widgets, assetFolderPaths };
}

function viewOf(loc: PageLocation, id: string, page: PageRow, parts: PageParts): PageView {
  return {
    id,
    name: loc.name,
    siteName: loc.siteName,
    folderPath: loc.folderPath,
    page,
    templateRegions: parts.template ? templateRegionsOf(parts.template) : [],
    widgets: parts.widgets,
    assetFolderPaths: parts.assetFolderPaths,
  };
}

/** The page with the most recent content of everything it shows, read inside `db`. */
async function loadView(db: Kysely<DB>, loc: PageLocation, id: string, page: PageRow): Promise<PageView> {
  return viewOf(loc, id, page, await loadParts(db, id, page.template_name));
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

/** Pages: read by everyone signed in, written by Contributors, Editors and Admins where folders allow it. */
export function createPagesService(ctx: AppContext) {
  /** The page at `segments` (404 PAGE_NOT_FOUND when nothing or something else is there). */
  async function findPage(db: Kysely<DB>, segments: readonly string[]) {
    const loc = await locatePage(db, segments);
    const node = loc.occupant;
    if (!node || node.kind !== 'page') {
      throw notFound('PAGE_NOT_FOUND', `No page "${loc.name}" in ${segments.slice(0, -1).join('/')}.`);
    }
    return { loc, node, chain: [...loc.parentChain, node] };
  }

  return {
    /** The page with a strong ETag of its JSON. */
    async get(actor: Actor, segments: readonly string[]): Promise<PageRepresentation> {
      const { loc, node, chain } = await findPage(ctx.db, segments);
      requireAccess(actor, chain, 'READ', 'this page');
      const page = await repo.findPage(ctx.db, node.id);
      if (!page) throw notFound('PAGE_NOT_FOUND', `No page "${loc.name}".`);
      return represent(await loadView(ctx.db, loc, node.id, page));
    },

    /**
     * Creates the page when nothing is at the URL, otherwise updates the fields sent; body regions, template
     * switch and workflow moves included. One transaction: everything changes, or nothing.
     */
    async put(
      actor: Actor,
      segments: readonly string[],
      input: PagePutBody,
      pre: Preconditions = {},
    ): Promise<PagePutResult> {
      const body = PagePutBody.parse(input);
      assertLocation(body, segments);
      if (body.workflow?.name !== undefined && body.workflow.name !== DEFAULT_WORKFLOW) {
        throw badRequest(`Pages follow the "${DEFAULT_WORKFLOW}".`, [
          { path: 'body.workflow.name', message: `must be "${DEFAULT_WORKFLOW}"` },
        ]);
      }
      const now = ctx.now();
      const ts = isoTime(now);
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
        let created = false;
        let before: PageRepresentation | undefined;
        // An existing page's row and parts as read before the change (the rest of the PUT reuses them).
        let page: PageRow;
        let beforeParts: PageParts | undefined;
        if (!loc.occupant) {
          assertPreconditions(pre, null);
          if (body.id !== undefined)
            throw conflict('ID_MISMATCH', 'A new page gets its id from the service: leave id out.');
          const name = ItemName.safeParse(loc.name);
          if (!name.success) {
            throw badRequest(
              `"${loc.name}" is not a valid page name.`,
              [{ path: 'params.*', message: name.error.issues[0]?.message ?? 'is invalid' }],
              'INVALID_PARAMETER',
            );
          }
          id = await insertPageRecord(trx, {
            parentId: loc.parentChain[loc.parentChain.length - 1]!.id,
            name: loc.name,
            templateName: body.templateName,
            actor,
            now,
            displayName: body.displayName,
          }).catch((err: unknown) => {
            // A concurrent PUT created something of this name since locatePage looked.
            if (err instanceof AppError && err.code === 'NAME_TAKEN') throw lostCreateRace(pre, `"${loc.name}"`, err);
            throw err;
          });
          created = true;
          page = (await repo.findPage(trx, id))!;
        } else {
          id = loc.occupant.id;
          const locked = await repo.lockPage(trx, id);
          if (!locked) throw notFound('PAGE_NOT_FOUND', `No page "${loc.name}".`);
          page = locked;
          beforeParts = await loadParts(trx, id, locked.template_name);
          before = represent(viewOf(loc, id, locked, beforeParts));
          assertPreconditions(pre, before.etag, `The page "${loc.name}"`);
          if (body.id !== undefined && body.id !== id) {
            throw conflict('ID_MISMATCH', `The body's id "${body.id}" is not the id of the page at the URL (${id}).`);
          }
        }

        // Template switch: content of regions the new template also has (editable) stays; the rest goes.
        let droppedRegions: string[] | undefined;
        const oldRegions = before ? before.page.body.map((r) => r.name) : [];
        const switching = body.templateName !== page.template_name;
        const template = await loadTemplate(trx, body.templateName, beforeParts?.template);
        const templateRegions = templateRegionsOf(template);
        let widgets = beforeParts?.widgets ?? (await repo.widgets(trx, id));
        if (body.body) {
          await applyBody(
            { trx, actor, now, pageId: id, templateName: body.templateName, templateRegions, widgets },
            body.body,
          );
          widgets = await repo.widgets(trx, id);
        }
        if (switching) {
          const editable = new Set(templateRegions.filter((r) => r.editable).map((r) => r.name));
          const gone = widgets.filter((w) => !editable.has(w.region));
          const regions = [...new Set(gone.map((w) => w.region))];
          const order = (r: string) => (oldRegions.includes(r) ? oldRegions.indexOf(r) : oldRegions.length);
          droppedRegions = regions.sort((a, b) => order(a) - order(b) || a.localeCompare(b));
          await repo.deleteWidgets(
            trx,
            gone.map((w) => w.id),
          );
        }

        const patch: Partial<PageRow> = {
          ...patchFields(page, body),
          ...(switching ? { template_name: body.templateName } : {}),
        };
        page = { ...page, ...patch };
        // The page as it will be: widgets as read after the body was applied (read again after a template switch
        // dropped some), the template asked for.
        const afterParts =
          beforeParts && !body.body && !switching
            ? beforeParts
            : await loadParts(trx, id, page.template_name, {
                template,
                ...(switching ? {} : { widgets }),
                ...(beforeParts ? { assetFolderPaths: beforeParts.assetFolderPaths } : {}),
              });
        let view = viewOf(loc, id, page, afterParts);
        const contentChanged = !before || contentSignature(before.page) !== contentSignature(presentPage(view));

        // Workflow: editing a Public page moves it to Quick Edit first, then the state asked for is walked to.
        const from = page.workflow_state;
        let state = from;
        let moved = false;
        if (!created && contentChanged && state === 'Public') {
          state = applyTransition(state, 'Edit', actor);
          moved = true;
        }
        if (body.workflow?.state) {
          for (const t of planTransitions(state, body.workflow.state, actor)) {
            state = t.to;
            moved = true;
          }
        }
        let checkedOut = page.checked_out === 1;
        let checkedOutUser = page.checked_out_user;
        if ((contentChanged && !created) || (moved && state === 'Quick Edit')) {
          checkedOut = true;
          checkedOutUser = actor.username;
        }
        if (moved && state === 'Public') {
          checkedOut = false;
          checkedOutUser = '';
        }
        if (body.workflow?.checkedOut !== undefined) {
          checkedOut = body.workflow.checkedOut;
          checkedOutUser = checkedOut ? actor.username : '';
        }
        const workflowPatch: Partial<PageRow> = {};
        if (state !== from) workflowPatch.workflow_state = state;
        if ((checkedOut ? 1 : 0) !== page.checked_out) workflowPatch.checked_out = checkedOut ? 1 : 0;
        if (checkedOutUser !== page.checked_out_user) workflowPatch.checked_out_user = checkedOutUser;
        const touched = contentChanged || moved || Object.keys(workflowPatch).length > 0;
        if (touched) {
          Object.assign(workflowPatch, { updated_at: ts, updated_by: actor.username });
          page = { ...page, ...workflowPatch };
          view = { ...view, page };
        }
        // The fields sent and the workflow's changes in one statement.
        const rowPatch = { ...patch, ...workflowPatch };
        if (Object.keys(rowPatch).length) await repo.updatePage(trx, id, rowPatch);
        if (touched) await repo.touchNode(trx, id, ts);

        const after = represent(view);
        const responseJson =
          switching && droppedRegions ? JSON.stringify({ ...after.page, droppedRegions }) : after.json;
        return { ...after, created, droppedRegions: switching ? droppedRegions : undefined, responseJson };
      });
    },

    /** Deletes the page and its local assets (shared assets stay). A site's or section's landing page stays. */
    async remove(actor: Actor, segments: readonly string[], ifMatch?: string): Promise<void> {
      await ctx.db.transaction().execute(async (trx) => {
        const { loc, node, chain } = await findPage(trx, segments);
        requireAccess(actor, chain, 'WRITE', 'this page');
        const locked = await repo.lockPage(trx, node.id);
        if (!locked) throw notFound('PAGE_NOT_FOUND', `No page "${loc.name}".`);
        assertIfMatch(ifMatch, represent(await loadView(trx, loc, node.id, locked)).etag);
        if (await repo.isLandingPage(trx, node.id)) {
          throw conflict(
            'CONFLICT',
            `"${loc.name}" is the landing page of its site or section: it goes when the section is deleted.`,
          );
        }
        await repo.deleteNode(trx, node.id);
      });
    },

    /** The page's state and the transitions the caller may take now (none without write access). */
    async transitions(actor: Actor, segments: readonly string[]): Promise<TransitionsResponse> {
      const { node, chain } = await findPage(ctx.db, segments);
      requireAccess(actor, chain, 'READ', 'this page');
      const page = (await repo.findPage(ctx.db, node.id))!;
      const state = page.workflow_state;
      const canWrite = effectiveAccess(actor, chain) !== 'READ';
      return {
        state,
        transitions: canWrite ? availableTransitions(state, actor).map((t) => ({ name: t.name, to: t.to })) : [],
      };
    },

    /**
     * Applies one transition to every page below a site, folder or section that it applies to and that the
     * caller may change; one transaction. Approve-all leaves archived pages archived (approve those one by one).
     */
    async bulk(actor: Actor, operation: BulkPageOperation, segments: readonly string[]): Promise<Message> {
      const op = BULK_PAGE_OPERATIONS[operation];
      const def = TRANSITIONS.find((t) => t.name === op.transition)!;
      if (!roleAtLeast(actor.role, def.minRole)) {
        throw forbidden(`A ${actor.role} may not ${op.transition.toLowerCase()} pages.`);
      }
      const from = new Set<WorkflowState>(def.from.filter((s) => !(operation === 'approve-all' && s === 'Archive')));
      const ts = isoTime(ctx.now());
      const count = await ctx.db.transaction().execute(async (trx) => {
        const chain = await locateContainer(trx, segments);
        requireAccess(actor, chain, 'WRITE', 'pages here');
        const nodes = await repo.subtree(trx, chain[chain.length - 1]!.id);
        const children = new Map<string, SubtreeNode[]>();
        for (const n of nodes) {
          const list = children.get(n.parent_id!) ?? [];
          list.push(n);
          children.set(n.parent_id!, list);
        }
        // Walk down so each page's access includes every folder above it.
        const targets: string[] = [];
        const walk = (parentId: string, above: NodeRow[]) => {
          for (const n of children.get(parentId) ?? []) {
            const path = [...above, n as unknown as NodeRow];
            if (n.kind === 'page') {
              if (
                n.workflow_state &&
                from.has(n.workflow_state as WorkflowState) &&
                effectiveAccess(actor, path) !== 'READ'
              ) {
                targets.push(n.id);
              }
            } else {
              walk(n.id, path);
            }
          }
        };
        walk(chain[chain.length - 1]!.id, chain);
        await repo.setWorkflow(trx, targets, {
          workflow_state: def.to,
          updated_at: ts,
          updated_by: actor.username,
          ...(def.to === 'Public' ? { checked_out: 0, checked_out_user: '' } : {}),
        });
        return targets.length;
      });
      return { message: `${op.verb} ${count} page${count === 1 ? '' : 's'}` };
    },
  };
}
export type PagesService = ReturnType<typeof createPagesService>;
