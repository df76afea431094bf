import type { FieldError } from '../../../shared/api/errors.js';
import { folderHref, pageHref } from '../../../shared/api/paths.js';
import {
  TEMPLATE_USAGE_LIMIT,
  type TemplatePutBody,
  type TemplateRegion,
  type TemplateRegionInput,
  type TemplateUsage,
  type TemplateUser,
} from '../../../shared/api/templates.js';
import { validateFields, widgetContentFields } from '../../../shared/registry/index.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/dialect.js';
import { deletion, recordChanges } from '../../lib/change-log.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { assertIfMatch, assertPreconditions, lostCreateRace, type Preconditions } from '../../lib/etag.js';
import { serialise } from '../../lib/respond.js';
import { presentTemplate, presentTemplateSummary, templateRegionsOf } from './templates.presenter.js';
import { compareNames } from '../folders/folders.presenter.js';
import { treeRepository } from '../tree/tree.repository.js';
import { templatesRepository as repo } from './templates.repository.js';
import { templateRefs } from '../pages/widget-refs.js';

/** A template as sent to the client: the object, its exact JSON and the strong ETag of that JSON. */
export interface TemplateRepresentation {
  template: ReturnType<typeof presentTemplate>;
  json: string;
  etag: string;
}

function represent(row: Parameters<typeof presentTemplate>[0]): TemplateRepresentation {
  const template = presentTemplate(row);
  return { template, ...serialise(template) };
}

/**
 * Checks each template widget's content against the registry and answers the regions as stored: template
 * widgets are always scope `template` and not editable.
 */
function normaliseRegions(regions: readonly TemplateRegionInput[]): TemplateRegion[] {
  const errors: FieldError[] = [];
  const out = regions.map((r, i) => ({
    name: r.name,
    editable: r.editable,
    widgets: (r.widgets ?? []).map((w, j) => {
      const fields = w.asset?.fields ?? {};
      for (const p of validateFields(widgetContentFields(w.type), fields, false)) {
        errors.push({ path: `body.regions.${i}.widgets.${j}.asset.fields.${p.key}`, message: p.message });
      }
      return { type: w.type, scope: 'template' as const, editable: false as const, asset: { fields } };
    }),
  }));
  if (errors.length) throw badRequest('Some template widgets hold invalid content.', errors);
  return out;
}

/**
 * The regions renamed by a PUT (`previousName` set and different from `name`), as `[from, to]`. A previous name
 * the template does not have is a 400.
 */
function renamesOf(before: readonly TemplateRegion[], input: readonly TemplateRegionInput[]): [string, string][] {
  const existing = new Set(before.map((r) => r.name));
  const errors: FieldError[] = [];
  const renames: [string, string][] = [];
  input.forEach((r, i) => {
    if (r.previousName === undefined || r.previousName === r.name) return;
    if (!existing.has(r.previousName)) {
      errors.push({ path: `body.regions.${i}.previousName`, message: `names no region of this template` });
    } else renames.push([r.previousName, r.name]);
  });
  if (errors.length) throw badRequest('A renamed region is not in the template.', errors);
  return renames;
}

/** Templates: everyone signed in reads them; admins create, change and delete them. */
export function createTemplatesService(ctx: AppContext) {
  const requireAdmin = (actor: Actor) => {
    if (actor.role !== 'Admin') throw forbidden('Only admins change templates.');
  };

  return {
    async list(_actor: Actor) {
      return (await repo.list(ctx.db)).map(presentTemplateSummary);
    },

    async get(_actor: Actor, name: string): Promise<TemplateRepresentation> {
      const row = await repo.find(ctx.db, name);
      if (!row) throw notFound('TEMPLATE_NOT_FOUND', `No template named "${name}".`);
      return represent(row);
    },

    /**
     * Creates the template (regions required) or changes the fields sent. A region that pages fill cannot be
     * removed or made non-editable while pages hold content there (409 TEMPLATE_IN_USE): their content would be lost.
     */
    async put(
      actor: Actor,
      name: string,
      body: TemplatePutBody,
      pre: Preconditions = {},
    ): Promise<TemplateRepresentation & { created: boolean }> {
      requireAdmin(actor);
      if (body.name !== undefined && body.name !== name) {
        throw conflict('LOCATION_MISMATCH', `The body names template "${body.name}" but the URL names "${name}".`);
      }
      const regions = body.regions ? normaliseRegions(body.regions) : undefined;
      return ctx.db.transaction().execute(async (trx) => {
        const existing = await repo.find(trx, name);
        assertPreconditions(pre, existing ? represent(existing).etag : null, `Template "${name}"`);
        const ts = isoTime(ctx.now());
        if (!existing) {
          if (!regions) {
            throw badRequest('A new template needs its regions.', [{ path: 'body.regions', message: 'is required' }]);
          }
          try {
            await repo.insert(trx, {
              name,
              label: body.label ?? name,
              description: body.description ?? '',
              regions: JSON.stringify(regions),
              created_at: ts,
              updated_at: ts,
              updated_by: actor.username,
            });
            await templateRefs.added(trx, name, JSON.stringify(regions));
          } catch (err) {
            if (isUniqueViolation(err)) {
              const taken = conflict('NAME_TAKEN', `Template "${name}" was just created by someone else.`);
              throw lostCreateRace(pre, `Template "${name}"`, taken);
            }
            throw err;
          }
          return { ...represent((await repo.find(trx, name))!), created: true };
        }
        let renames: [string, string][] = [];
        if (regions && body.regions) {
          const before = templateRegionsOf(existing);
          renames = renamesOf(before, body.regions);
          // An editable region keeps its content in its successor (the region renamed from it, or the one of the
          // same name that is not renamed from another) when that stays editable; otherwise the content is lost.
          const successor = (old: string) =>
            body.regions!.find((r) => r.previousName === old && r.previousName !== r.name) ??
            body.regions!.find((r) => r.name === old && (r.previousName === undefined || r.previousName === r.name));
          const lost = before.filter((r) => r.editable && !successor(r.name)?.editable).map((r) => r.name);
          const used = await repo.pagesWithContentIn(trx, name, lost);
          if (used.length) {
            throw conflict(
              'TEMPLATE_IN_USE',
              `Pages hold content in ${used.map((u) => `"${u.region}" (${u.pages} page${u.pages === 1 ? '' : 's'})`).join(', ')}; ` +
                'keep those regions editable, or move the content first.',
              { regions: used },
            );
          }
        }
        if (renames.length) await repo.renameRegionContent(trx, name, renames);
        if (regions) await templateRefs.changed(trx, name, existing.regions, JSON.stringify(regions));
        await repo.update(trx, name, {
          ...(body.label !== undefined ? { label: body.label } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(regions ? { regions: JSON.stringify(regions) } : {}),
          updated_at: ts,
          updated_by: actor.username,
        });
        return { ...represent((await repo.find(trx, name))!), created: false };
      });
    },

    /**
     * The pages made from the template (with `regions`: those holding content in one of them), up to the limit,
     * by path, and the sites and sections whose landing pages use it: what a TEMPLATE_IN_USE is about.
     */
    async usage(_actor: Actor, name: string, regions?: readonly string[]): Promise<TemplateUsage> {
      if (!(await repo.find(ctx.db, name))) throw notFound('TEMPLATE_NOT_FOUND', `No template named "${name}".`);
      const [pages, trashedPages, counts, allSections] = await Promise.all([
        repo.pagesUsing(ctx.db, name, regions, TEMPLATE_USAGE_LIMIT, false),
        repo.pagesUsing(ctx.db, name, regions, TEMPLATE_USAGE_LIMIT, true),
        repo.countPagesUsing(ctx.db, name, regions),
        repo.sectionsUsing(ctx.db, name),
      ]);
      const sections = allSections.filter((n) => n.entry === null);
      const trashedSections = allSections.filter((n) => n.entry !== null);
      const [paths, from] = await Promise.all([
        treeRepository.pathsOf(ctx.db, [...pages.map((p) => p.id), ...sections.map((n) => n.id)]),
        repo.trashedFrom(
          ctx.db,
          [...trashedPages, ...trashedSections].map((r) => r.entry!),
        ),
      ]);
      const byPath = (a: TemplateUser, b: TemplateUser) => compareNames(a.path, b.path);
      const users = <T extends { id: string; title: string | null }>(
        rows: T[],
        present: (row: T, path: string[]) => TemplateUser,
      ) => rows.flatMap((r) => (paths.has(r.id) ? [present(r, paths.get(r.id)!)] : [])).sort(byPath);
      const kindOf = (kind: string): 'site' | 'section' => (kind === 'site' ? 'site' : 'section');
      const trashed = [
        ...trashedPages.map((p) => ({ kind: 'page' as const, title: p.title, entry: p.entry! })),
        ...trashedSections.map((n) => ({ kind: kindOf(n.kind), title: n.title, entry: n.entry! })),
      ]
        .filter((t) => from.has(t.entry))
        .map((t) => {
          const deletedFrom = from.get(t.entry)!;
          return {
            kind: t.kind,
            title: t.title || deletedFrom.split('/').pop()!,
            trashId: t.entry,
            deletedFrom,
          };
        })
        .sort((a, b) => compareNames(a.deletedFrom, b.deletedFrom) || compareNames(a.title, b.title));
      return {
        pages: users(pages, (p, path) => ({
          path: path.join('/'),
          kind: 'page',
          title: p.title || path[path.length - 1]!,
          href: pageHref(path),
        })),
        pageCount: counts.live,
        sections: users(sections, (n, path) => ({
          path: path.join('/'),
          kind: kindOf(n.kind),
          title: n.title || path[path.length - 1]!,
          href: folderHref(path),
        })),
        trashed,
        trashedCount: counts.trashed + trashedSections.length,
      };
    },

    /**
     * Deletes an unused template: 409 TEMPLATE_IN_USE while pages use it or sections name it for landing pages —
     * those in the trash too, which would come back without it.
     */
    async remove(actor: Actor, name: string, ifMatch?: string): Promise<void> {
      requireAdmin(actor);
      await ctx.db.transaction().execute(async (trx) => {
        const existing = await repo.find(trx, name);
        if (!existing) throw notFound('TEMPLATE_NOT_FOUND', `No template named "${name}".`);
        assertIfMatch(ifMatch, represent(existing).etag);
        const pages = await repo.countPages(trx, name);
        const sections = await repo.countSections(trx, name);
        const trashed = pages.trashed + sections.trashed;
        if (pages.live || sections.live) {
          const users = [
            pages.live ? `${pages.live} page${pages.live === 1 ? '' : 's'}` : '',
            sections.live
              ? `${sections.live} site or section landing page setting${sections.live === 1 ? '' : 's'}`
              : '',
            trashed ? `${trashed} item${trashed === 1 ? '' : 's'} in the trash` : '',
          ].filter(Boolean);
          throw conflict('TEMPLATE_IN_USE', `Template "${name}" is used by ${users.join(' and ')}.`, {
            pages: pages.live,
            sections: sections.live,
            trashed,
          });
        }
        if (trashed) {
          throw conflict(
            'TEMPLATE_IN_USE',
            `Template "${name}" is used by ${trashed === 1 ? 'an item' : `${trashed} items`} in the trash, which ` +
              `would come back without it: delete ${trashed === 1 ? 'it' : 'them'} there for good first.`,
            { pages: 0, sections: 0, trashed },
          );
        }
        try {
          await repo.delete(trx, name);
          await recordChanges(trx, [deletion('template', name, [name], actor.username, ctx.now())]);
        } catch (err) {
          // A page created with the template at the same moment.
          if (isForeignKeyViolation(err)) throw conflict('TEMPLATE_IN_USE', `Template "${name}" is in use.`);
          throw err;
        }
      });
    },
  };
}
export type TemplatesService = ReturnType<typeof createTemplatesService>;
