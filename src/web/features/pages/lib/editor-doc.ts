import type {
  Page,
  PagePutBody,
  RegionInput,
  Widget,
  WidgetAssetInput,
  WidgetInput,
} from '../../../../shared/api/pages';
import { assetTypeDef, widgetContentFields, widgetTypeDef, type WidgetType } from '../../../../shared/registry';
import { sameValue, textOf } from '../../../kit/saving/conflict-diff';

/*
 * The page editor's model: what the user is editing (an `EditorDoc`) next to the page as the server last sent it
 * (the base). The save planner compares the two and sends only what changed.
 */

/** Field values of a widget's content, as the server holds them. */
export type Fields = Record<string, string | null>;

/** A shared asset in the library (`Assets/…` folder and name). */
export interface SharedRef {
  name: string;
  folderPath: string;
}

/** A widget of an editable region, as edited. */
export interface EditorWidget {
  /** Stable key in the editor: the server id, or `new-…` for a widget not saved yet. */
  key: string;
  /** The server id (absent for a new widget: a detached copy is a new widget too). */
  id?: string;
  type: WidgetType;
  /** Its local content; for a linked shared asset, the asset's fields (read-only here). */
  fields: Fields;
  /** The shared asset the widget links, or will link / become when saved. */
  shared?: SharedRef;
  /** `create`: the local content becomes a new shared asset at `shared` on save; `link`: link an existing one. */
  share?: 'create' | 'link';
}

/** What the page's properties form edits. */
export interface PageProps {
  displayName: string;
  summary: string;
  overridePostDate: string | null;
  browserTitle: string;
  metaDescription: string;
  hideSearch: boolean;
  tags: string[];
  categories: string[];
  startDate: string | null;
  endDate: string | null;
  codeHead: string;
  codeAfterStart: string;
  codeBeforeClose: string;
}

/** Everything the user edits: the properties and the widgets of each editable region (by region name). */
export interface EditorDoc {
  props: PageProps;
  regions: Record<string, EditorWidget[]>;
}

let counter = 0;
/** A key for a widget that has no server id yet. */
export function newWidgetKey(): string {
  counter += 1;
  return `new-${Date.now().toString(36)}-${counter}`;
}

/** The properties of a page as the form edits them. */
export function propsOf(page: Page): PageProps {
  return {
    displayName: page.displayName,
    summary: page.summary ?? '',
    overridePostDate: page.overridePostDate,
    browserTitle: page.seo.browserTitle,
    metaDescription: page.seo.metaDescription,
    hideSearch: page.seo.hideSearch,
    tags: page.seo.tags,
    categories: page.seo.categories,
    startDate: page.calendar.startDate,
    endDate: page.calendar.endDate,
    codeHead: page.code.head ?? '',
    codeAfterStart: page.code.afterStart ?? '',
    codeBeforeClose: page.code.beforeClose ?? '',
  };
}

function widgetOf(w: Widget): EditorWidget {
  return {
    key: w.id ?? newWidgetKey(),
    id: w.id,
    type: w.type,
    fields: { ...w.asset.fields },
    shared: w.asset.name !== undefined ? { name: w.asset.name, folderPath: w.asset.folderPath ?? '' } : undefined,
  };
}

/** The editor's model of a page: its properties and the widgets of its editable regions. */
export function docOf(page: Page): EditorDoc {
  const regions: Record<string, EditorWidget[]> = {};
  for (const r of page.body) if (r.editable) regions[r.name] = r.widgets.map(widgetOf);
  return { props: propsOf(page), regions };
}

/** Whether the widget type's content is a binary asset (an image, a file): it is always a linked library asset. */
export function isBinaryWidget(type: string): boolean {
  const assetType = widgetTypeDef(type)?.assetType;
  return Boolean(assetType && assetTypeDef(assetType)?.binary);
}

/** Whether the widget's content can be shared (it has an asset type that is not binary). */
export function canShare(type: string): boolean {
  return Boolean(widgetTypeDef(type)?.assetType) && !isBinaryWidget(type);
}

/** Whether the widget shows a shared asset of the library (not one it makes when saved): read-only on the page. */
export function isLinkedWidget(w: Pick<EditorWidget, 'shared' | 'share'>): boolean {
  return w.shared !== undefined && w.share !== 'create';
}

/** The path of a shared asset (`Assets/snippets/contact`). */
export function sharedPath(ref: SharedRef): string {
  return `${ref.folderPath.replace(/^\/+|\/+$/g, '')}/${ref.name}`;
}

const isSet = (v: string | null | undefined) => v !== null && v !== undefined && v !== '';

/** The fields that differ between two sets of values ("" and null are both unset; unset is sent as null). */
export function changedFields(before: Fields, after: Fields): Fields {
  const out: Fields = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!sameValue(before[key], after[key])) out[key] = isSet(after[key]) ? after[key]! : null;
  }
  return out;
}

function setFields(fields: Fields): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(fields)) if (isSet(v)) out[k] = v;
  return out;
}

/** The `asset` of a widget as sent, or undefined when its content did not change. */
function assetInput(w: EditorWidget, before: Widget | undefined): WidgetAssetInput | undefined {
  if (w.share && w.shared) {
    // Becoming a new shared asset: the server takes the widget's content; send what changed on top of it.
    if (w.share === 'create') {
      const extra = before ? changedFields(before.asset.fields, w.fields) : setFields(w.fields);
      return Object.keys(extra).length
        ? { name: w.shared.name, folderPath: w.shared.folderPath, fields: extra }
        : { name: w.shared.name, folderPath: w.shared.folderPath };
    }
    return { name: w.shared.name, folderPath: w.shared.folderPath };
  }
  if (!before)
    return w.shared ? { name: w.shared.name, folderPath: w.shared.folderPath } : { fields: setFields(w.fields) };
  // A linked widget's fields are the shared asset's: read-only here, never sent.
  if (w.shared) return undefined;
  const changes = changedFields(before.asset.fields, w.fields);
  return Object.keys(changes).length ? { fields: changes } : undefined;
}

/** Whether an edited region differs from the server's: other widgets, another order, or changed content. */
function regionChanged(
  widgets: readonly EditorWidget[],
  before: readonly Widget[],
  byId: Map<string, Widget>,
): boolean {
  if (widgets.length !== before.length) return true;
  return widgets.some(
    (w, i) => w.id === undefined || w.id !== before[i]!.id || assetInput(w, byId.get(w.id)) !== undefined,
  );
}

/** What `planSave` sends for each changed property (in the shape of the PUT body). */
function propChanges(before: PageProps, after: PageProps): Omit<PagePutBody, 'templateName' | 'body'> {
  const body: Omit<PagePutBody, 'templateName' | 'body'> = {};
  const differs = <K extends keyof PageProps>(k: K) => !sameValue(before[k], after[k]);
  if (differs('displayName')) body.displayName = after.displayName;
  if (differs('summary')) body.summary = after.summary === '' ? null : after.summary;
  if (differs('overridePostDate')) body.overridePostDate = after.overridePostDate || null;
  const seo: NonNullable<PagePutBody['seo']> = {};
  if (differs('browserTitle')) seo.browserTitle = after.browserTitle;
  if (differs('metaDescription')) seo.metaDescription = after.metaDescription;
  if (differs('hideSearch')) seo.hideSearch = after.hideSearch;
  if (differs('tags')) seo.tags = after.tags;
  if (differs('categories')) seo.categories = after.categories;
  if (Object.keys(seo).length) body.seo = seo;
  const calendar: NonNullable<PagePutBody['calendar']> = {};
  if (differs('startDate')) calendar.startDate = after.startDate || null;
  if (differs('endDate')) calendar.endDate = after.endDate || null;
  if (Object.keys(calendar).length) body.calendar = calendar;
  const code: NonNullable<PagePutBody['code']> = {};
  if (differs('codeHead')) code.head = after.codeHead || null;
  if (differs('codeAfterStart')) code.afterStart = after.codeAfterStart || null;
  if (differs('codeBeforeClose')) code.beforeClose = after.codeBeforeClose || null;
  if (Object.keys(code).length) body.code = code;
  return body;
}

/**
 * The PUT body that saves `doc` over `base`: `templateName` (the service requires it) and only what changed —
 * changed properties, and each editable region whose widgets changed (a region is sent whole: its widgets in
 * order, unchanged ones by id alone, changed content as only its changed fields). Null when nothing changed.
 *
 * `liveIds`: when overwriting another save, the widget ids that still exist on the server; a widget of mine whose
 * id is gone is sent again as a new widget with all of its content, so nothing of mine is lost.
 */
export function planSave(base: Page, doc: EditorDoc, liveIds?: ReadonlySet<string>): PagePutBody | null {
  const body: PagePutBody = { templateName: base.templateName, ...propChanges(propsOf(base), doc.props) };
  const byId = new Map<string, Widget>();
  for (const r of base.body) for (const w of r.widgets) if (w.id) byId.set(w.id, w);

  const regions: RegionInput[] = [];
  for (const region of base.body) {
    const widgets = doc.regions[region.name];
    if (!region.editable || !widgets) continue;
    const gone = (w: EditorWidget) => w.id !== undefined && liveIds !== undefined && !liveIds.has(w.id);
    if (!regionChanged(widgets, region.widgets, byId)) continue;
    regions.push({
      name: region.name,
      type: 'PAGE',
      widgets: widgets.map((w): WidgetInput => {
        if (gone(w) || w.id === undefined) {
          const asNew = { ...w, id: undefined };
          return { type: w.type, asset: assetInput(asNew, undefined) };
        }
        const asset = assetInput(w, byId.get(w.id));
        return asset ? { id: w.id, type: w.type, asset } : { id: w.id, type: w.type };
      }),
    });
  }
  if (regions.length) body.body = regions;
  return Object.keys(body).length > 1 ? body : null;
}

/** How many things a save would change (properties and widgets), for "3 unsaved changes". */
export function countChanges(base: Page, doc: EditorDoc): number {
  const plan = planSave(base, doc);
  if (!plan) return 0;
  const { templateName: _t, body, seo, calendar, code, ...top } = plan;
  void _t;
  let n = Object.keys(top).length + Object.keys(seo ?? {}).length + Object.keys(calendar ?? {}).length;
  n += Object.keys(code ?? {}).length;
  const before = new Map(base.body.map((r) => [r.name, r.widgets]));
  for (const r of body ?? []) {
    const old = before.get(r.name) ?? [];
    const oldIds = old.map((w) => w.id);
    const changedContent = r.widgets.filter((w) => w.asset !== undefined).length;
    const removed = oldIds.filter((id) => !r.widgets.some((w) => w.id === id)).length;
    const moved = r.widgets.filter((w, i) => w.id !== undefined && oldIds[i] !== w.id && oldIds.includes(w.id)).length;
    n += changedContent + removed + (moved > 0 ? 1 : 0);
    if (changedContent + removed + moved === 0) n += 1;
  }
  return n;
}

/** A widget's content in a few words, for the outline and the conflict dialog. */
export function widgetExcerpt(w: { type: string; fields: Fields; shared?: SharedRef }, max = 60): string {
  const defs = widgetContentFields(w.type);
  let text = '';
  for (const key of [
    'displaytitle',
    'formtitle',
    'pollTitle',
    'calendar_title',
    'mainTitle',
    'text',
    'html',
    'postbody',
    'body',
  ]) {
    const v = w.fields[key];
    if (isSet(v)) {
      text = textOf(v!);
      if (text) break;
    }
  }
  if (!text) {
    for (const d of defs) {
      const v = w.fields[d.key];
      if (isSet(v) && d.editor !== 'json-structured') {
        text = `${d.label}: ${textOf(v!)}`;
        break;
      }
    }
  }
  if (!text && w.shared) text = w.shared.name;
  if (!text) return 'Empty';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The label of a widget type ("Rich text"). */
export function widgetLabel(type: string): string {
  return widgetTypeDef(type)?.label ?? type;
}

/**
 * The doc after a save answered `saved`. Unchanged since it was sent (`sent`): the server's version, keeping the
 * editor's widget keys (so forms and focus stay). Edited meanwhile: the current doc, with the ids the server gave
 * the widgets it created (matched by position in the regions sent), so the next save does not create them again.
 */
export function rebase(current: EditorDoc, sent: EditorDoc, saved: Page): EditorDoc {
  const savedRegions = new Map(saved.body.map((r) => [r.name, r.widgets]));
  const byKey = new Map<string, Widget>();
  for (const [name, widgets] of Object.entries(sent.regions)) {
    const after = savedRegions.get(name) ?? [];
    if (after.length !== widgets.length) continue;
    widgets.forEach((w, i) => byKey.set(w.key, after[i]!));
  }
  if (current === sent) {
    const fresh = docOf(saved);
    const keyOfId = new Map([...byKey].filter(([, w]) => w.id).map(([key, w]) => [w.id!, key]));
    for (const widgets of Object.values(fresh.regions)) {
      for (const w of widgets) if (w.id && keyOfId.has(w.id)) w.key = keyOfId.get(w.id)!;
    }
    return fresh;
  }
  const regions: Record<string, EditorWidget[]> = {};
  for (const [name, widgets] of Object.entries(current.regions)) {
    regions[name] = widgets.map((w) => {
      const s = byKey.get(w.key);
      if (!s?.id) return w;
      const linked =
        s.asset.name !== undefined ? { name: s.asset.name, folderPath: s.asset.folderPath ?? '' } : undefined;
      return { ...w, id: s.id, share: undefined, shared: linked, fields: linked ? { ...s.asset.fields } : w.fields };
    });
  }
  return { props: current.props, regions };
}

/*
 * Reducers of the doc: each answers a new doc (or the same one when nothing changes), never mutating its input.
 */

/** Where a widget sits: its region, its index there and the widget itself; null when the doc has no such key. */
export function locateWidget(doc: EditorDoc, key: string) {
  for (const [region, widgets] of Object.entries(doc.regions)) {
    const index = widgets.findIndex((w) => w.key === key);
    if (index >= 0) return { region, index, widget: widgets[index]! };
  }
  return null;
}

/** The doc with the widget `key` changed by `change`. */
export function updateWidget(doc: EditorDoc, key: string, change: (w: EditorWidget) => EditorWidget): EditorDoc {
  const regions: Record<string, EditorWidget[]> = {};
  for (const [name, widgets] of Object.entries(doc.regions))
    regions[name] = widgets.map((w) => (w.key === key ? change(w) : w));
  return { ...doc, regions };
}

/** The doc with `widget` put at `index` of `region` (clamped to the region's ends). */
export function insertWidget(doc: EditorDoc, region: string, index: number, widget: EditorWidget): EditorDoc {
  const list = [...(doc.regions[region] ?? [])];
  list.splice(Math.max(0, Math.min(index, list.length)), 0, widget);
  return { ...doc, regions: { ...doc.regions, [region]: list } };
}

/** The doc without the widget `key`. */
export function removeWidget(doc: EditorDoc, key: string): EditorDoc {
  const regions: Record<string, EditorWidget[]> = {};
  for (const [name, widgets] of Object.entries(doc.regions)) regions[name] = widgets.filter((w) => w.key !== key);
  return { ...doc, regions };
}

/** The doc with the widget `key` moved to `index` of `region` (the same doc when either is missing). */
export function placeWidget(doc: EditorDoc, key: string, region: string, index: number): EditorDoc {
  const at = locateWidget(doc, key);
  if (!at || !doc.regions[region]) return doc;
  return insertWidget(removeWidget(doc, key), region, index, at.widget);
}

/**
 * A copy of a widget as a new widget: a linked shared asset stays linked; content to be shared stays local.
 * `fields`: the copy's content (by default the widget's own; `fieldsOfDuplicate` numbers unique names anew).
 */
export function duplicateOf(w: EditorWidget, fields: Fields = { ...w.fields }): EditorWidget {
  return {
    key: newWidgetKey(),
    type: w.type,
    fields,
    shared: w.share === 'create' ? undefined : w.shared,
    share: isLinkedWidget(w) ? 'link' : undefined,
  };
}
