import type { Kysely } from 'kysely';
import { ItemName } from '../../../shared/api/common.js';
import type { FieldError } from '../../../shared/api/errors.js';
import type { RegionInput, WidgetInput } from '../../../shared/api/pages.js';
import { ASSET_LIBRARY, splitPath } from '../../../shared/api/paths.js';
import type { TemplateRegion } from '../../../shared/api/templates.js';
import { assetTypeDef, validateFields, widgetContentFields, widgetTypeDef } from '../../../shared/registry/index.js';
import { nextId } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import type { Actor } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { ensureAssetFolder, insertAssetRecord } from '../assets/asset-records.js';
import { requireAccess } from '../tree/access.js';
import { treeRepository } from '../tree/tree.repository.js';
import { localFieldsOf } from './pages.presenter.js';
import { pagesRepository as repo, type WidgetWithAsset } from './pages.repository.js';
import { widgetRefs } from './widget-refs.js';

type Fields = Record<string, string | null>;

/** What a widget of the body will hold once the PUT is applied. */
type ContentPlan =
  | { kind: 'keep' }
  | { kind: 'local'; fields: Fields }
  /** Link the shared asset at `folderSegments/name`, or convert `base` + `overlay` into a new one there. */
  | { kind: 'shared'; folderSegments: string[]; name: string; base: Fields; overlay: Fields; path: string };

interface WidgetPlan {
  /** The existing widget kept (and perhaps moved or edited), or undefined for a new one. */
  existing: WidgetWithAsset | undefined;
  region: string;
  position: number;
  type: string;
  editable: boolean;
  content: ContentPlan;
}

export interface BodyChange {
  trx: Kysely<DB>;
  actor: Actor;
  now: number;
  pageId: string;
  templateName: string;
  templateRegions: readonly TemplateRegion[];
  /** The page's widgets before this PUT. */
  widgets: readonly WidgetWithAsset[];
}

/** Values with null (= unset) left out: what is stored. */
function withoutNulls(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null));
}

/** The first reason one of `names` is not a valid item name, or null. */
function nameProblem(names: readonly string[]): string | null {
  for (const n of names) {
    const r = ItemName.safeParse(n);
    if (!r.success) return `"${n}" ${r.error.issues[0]?.message ?? 'is not a valid name'}`;
  }
  return null;
}

/** JSON with object keys sorted, to compare contents regardless of key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** True when the widgets sent for a non-editable region are just the template's own, echoed back. */
function echoesTemplate(sent: readonly WidgetInput[], region: TemplateRegion): boolean {
  if (sent.length !== region.widgets.length) return false;
  return sent.every((w, i) => {
    const t = region.widgets[i]!;
    const a = w.asset;
    if (a && (a.name !== undefined || a.remove)) return false;
    return w.type === t.type && canonical(withoutNulls(a?.fields ?? {})) === canonical(withoutNulls(t.asset.fields));
  });
}

/** Checks the regions sent and plans each widget; throws one 400 listing every problem. Reads nothing. */
function planBody(c: BodyChange, regions: readonly RegionInput[]): { plans: WidgetPlan[]; regionsSent: Set<string> } {
  const errors: FieldError[] = [];
  const byName = new Map(c.templateRegions.map((r) => [r.name, r]));
  const oldById = new Map(c.widgets.map((w) => [w.id, w]));
  const regionsSent = new Set<string>();
  const idsSent = new Set<string>();
  const plans: WidgetPlan[] = [];

  regions.forEach((r, i) => {
    const at = `body.body.${i}`;
    const region = byName.get(r.name);
    if (!region) {
      errors.push({ path: `${at}.name`, message: `template "${c.templateName}" has no region "${r.name}"` });
      return;
    }
    if (regionsSent.has(r.name)) {
      errors.push({ path: `${at}.name`, message: `region "${r.name}" is sent twice` });
      return;
    }
    if (!region.editable) {
      // Echoing the template's region back (as a GET shows it) is harmless; changing it is not allowed.
      if (r.type === 'TEMPLATE' && echoesTemplate(r.widgets, region)) return;
      errors.push({ path: `${at}.name`, message: `region "${r.name}" is not editable: it belongs to the template` });
      return;
    }
    regionsSent.add(r.name);
    r.widgets.forEach((w, j) => {
      const wat = `${at}.widgets.${j}`;
      let existing: WidgetWithAsset | undefined;
      if (w.id !== undefined) {
        existing = oldById.get(w.id);
        if (!existing) {
          errors.push({
            path: `${wat}.id`,
            message: `"${w.id}" is not a widget of this page; leave id out for a new widget`,
          });
          return;
        }
        if (idsSent.has(w.id)) {
          errors.push({ path: `${wat}.id`, message: `widget "${w.id}" is sent twice` });
          return;
        }
        idsSent.add(w.id);
        if (existing.type !== w.type) {
          errors.push({
            path: `${wat}.type`,
            message: `widget "${w.id}" is a ${existing.type}; a widget's type cannot change`,
          });
          return;
        }
      }
      if (w.scope === 'template') {
        errors.push({ path: `${wat}.scope`, message: 'widgets a page adds are local' });
        return;
      }
      const def = widgetTypeDef(w.type)!;
      const a = w.asset;
      const base: Fields = existing
        ? existing.shared_asset_id
          ? existing.asset_fields
            ? (JSON.parse(existing.asset_fields) as Fields)
            : {}
          : localFieldsOf(existing)
        : {};
      let content: ContentPlan;
      if (!a) {
        content = existing ? { kind: 'keep' } : { kind: 'local', fields: {} };
      } else if (a.remove) {
        content = { kind: 'local', fields: {} };
      } else if (a.name !== undefined && a.folderPath !== undefined) {
        if (!def.assetType) {
          errors.push({
            path: `${wat}.asset`,
            message: `a ${w.type} widget keeps its settings locally; it cannot be shared`,
          });
          return;
        }
        const folderSegments = splitPath(a.folderPath);
        if (folderSegments[0] !== ASSET_LIBRARY) {
          errors.push({
            path: `${wat}.asset.folderPath`,
            message: `shared assets live in the asset library: "${ASSET_LIBRARY}/…"`,
          });
          return;
        }
        const badName = nameProblem([a.name]);
        const badFolder = nameProblem(folderSegments);
        if (badName || badFolder) {
          if (badName) errors.push({ path: `${wat}.asset.name`, message: badName });
          if (badFolder) errors.push({ path: `${wat}.asset.folderPath`, message: badFolder });
          return;
        }
        content = {
          kind: 'shared',
          folderSegments,
          name: a.name,
          base,
          overlay: a.fields ?? {},
          path: `${wat}.asset`,
        };
      } else if (existing?.shared_asset_id) {
        // Fields of a shared asset are read-only through pages; the widget stays linked.
        content = { kind: 'keep' };
      } else {
        const fields = withoutNulls({ ...(existing ? base : {}), ...(a.fields ?? {}) });
        for (const p of validateFields(widgetContentFields(w.type), fields, false)) {
          errors.push({ path: `${wat}.asset.fields.${p.key}`, message: p.message });
        }
        content = { kind: 'local', fields };
      }
      plans.push({
        existing,
        region: r.name,
        position: j,
        type: w.type,
        editable: w.editable ?? (existing ? existing.editable === 1 : true),
        content,
      });
    });
  });
  if (errors.length) {
    const regionsNamed = [...new Set(errors.filter((e) => e.path.endsWith('.name')).map((e) => e.message))];
    throw badRequest(
      regionsNamed.length ? `Invalid body: ${regionsNamed.join('; ')}.` : 'Some widgets are invalid.',
      errors,
    );
  }
  return { plans, regionsSent };
}

/**
 * The shared asset a widget links: the existing one at the path (its type must be the widget's asset type;
 * fields sent are ignored), or a new one made from the widget's content (its type's required fields needed).
 */
async function sharedAssetFor(c: BodyChange, type: string, plan: Extract<ContentPlan, { kind: 'shared' }>) {
  const assetType = widgetTypeDef(type)!.assetType!;
  const where = [...plan.folderSegments, plan.name].join('/');
  const { chain } = await treeRepository.resolve(c.trx, [...plan.folderSegments, plan.name]);
  const found = chain[plan.folderSegments.length];
  if (found) {
    if (found.kind !== 'asset') throw conflict('ASSET_ALREADY_EXISTS', `"${where}" is a folder, not an asset.`);
    // A link the page did not have yet: the asset's fields are read under a share lock (migration 0160).
    const linked = c.widgets.some((w) => w.shared_asset_id === found.id);
    const asset = await repo.findAsset(c.trx, found.id, !linked);
    if (!asset || asset.type !== assetType) {
      throw conflict(
        'TYPE_MISMATCH',
        `"${where}" is a ${asset?.type ?? 'folder'}; a ${type} widget links ${assetType} assets only.`,
      );
    }
    return found.id;
  }
  const typeDef = assetTypeDef(assetType)!;
  if (typeDef.binary) {
    throw notFound(
      'ASSET_NOT_FOUND',
      `No asset "${where}". ${typeDef.label} assets hold a file: upload it to the asset library first, then link it.`,
    );
  }
  const fields = withoutNulls({ ...plan.base, ...plan.overlay });
  const problems = validateFields(typeDef.fields, fields, true);
  if (problems.length) {
    throw badRequest(
      `To become the shared ${assetType} "${where}", the widget's content needs valid required fields.`,
      problems.map((p) => ({ path: `${plan.path}.fields.${p.key}`, message: p.message })),
    );
  }
  // Creating in the library needs write access to the deepest asset folder that exists already.
  requireAccess(c.actor, chain, 'WRITE', `the asset folder ${chain.map((n) => n.name).join('/')}`);
  const folders = await ensureAssetFolder(c.trx, plan.folderSegments, c.now);
  return insertAssetRecord(c.trx, {
    folderId: folders[folders.length - 1]!.id,
    name: plan.name,
    type: assetType,
    fields,
    actor: c.actor,
    now: c.now,
    folder: plan.folderSegments,
  });
}

/**
 * Applies the regions sent: each becomes exactly the widgets sent, in order; widgets sent with their id keep it
 * (and may move between regions); widgets of those regions not sent again are deleted with their local assets.
 * Regions not sent are left alone. Runs in the page PUT's transaction.
 */
export async function applyBody(c: BodyChange, regions: readonly RegionInput[]): Promise<void> {
  const { plans, regionsSent } = planBody(c, regions);
  const kept = new Set<string>();
  for (const plan of plans) {
    let fields: string | null | undefined;
    let shared: string | null | undefined;
    if (plan.content.kind === 'local') {
      fields = JSON.stringify(plan.content.fields);
      shared = null;
    } else if (plan.content.kind === 'shared') {
      shared = await sharedAssetFor(c, plan.type, plan.content);
      fields = null;
    }
    const placement = { region: plan.region, position: plan.position, editable: plan.editable ? 1 : 0 };
    if (plan.existing) {
      kept.add(plan.existing.id);
      await repo.updateWidget(c.trx, plan.existing.id, {
        ...placement,
        ...(fields !== undefined ? { fields } : {}),
        ...(shared !== undefined ? { shared_asset_id: shared } : {}),
      });
      if (fields !== undefined) await widgetRefs.changed(c.trx, plan.existing.id, plan.existing.fields, fields);
    } else {
      const id = await nextId(c.trx, 'widget');
      await repo.insertWidget(c.trx, {
        id,
        page_id: c.pageId,
        type: plan.type,
        scope: 'local',
        ...placement,
        fields: fields === undefined ? '{}' : fields,
        shared_asset_id: shared ?? null,
      });
      if (fields) await widgetRefs.added(c.trx, id, fields);
    }
  }
  const gone = c.widgets.filter((w) => regionsSent.has(w.region) && !kept.has(w.id)).map((w) => w.id);
  await repo.deleteWidgets(c.trx, gone);
}
