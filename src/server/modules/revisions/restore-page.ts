import type { Page, PagePutBody, RegionInput, Widget, WidgetInput } from '../../../shared/api/pages.js';

/** The shared assets a page's widgets link, as `Assets/<folder…>/<name>` paths. */
export function sharedAssetPaths(page: Page): string[] {
  const paths = new Set<string>();
  for (const region of page.body) {
    for (const w of region.widgets) {
      if (w.asset.name !== undefined && w.asset.folderPath !== undefined)
        paths.add(`${w.asset.folderPath}/${w.asset.name}`);
    }
  }
  return [...paths];
}

/** A widget of the revision as sent again: its id while the page still has that widget, its content or link. */
function widgetInput(w: Widget, ids: ReadonlySet<string>): WidgetInput {
  const linked = w.asset.name !== undefined && w.asset.folderPath !== undefined;
  return {
    ...(w.id !== undefined && ids.has(w.id) ? { id: w.id } : {}),
    type: w.type,
    editable: w.editable,
    asset: linked ? { name: w.asset.name, folderPath: w.asset.folderPath } : { fields: w.asset.fields },
  };
}

/**
 * The PUT that makes the page `current` what it was in `revision`: every member that differs, and each editable
 * region as the revision had it (regions the revision had no widgets in are emptied). Only the page's own widgets
 * are sent (the template's come with it); the workflow is left to the PUT's rules.
 */
export function restoreBodyOf(revision: Page, current: Page): PagePutBody {
  const differs = <K extends keyof Page>(key: K) => JSON.stringify(revision[key]) !== JSON.stringify(current[key]);
  const body: PagePutBody = { templateName: revision.templateName };
  if (differs('displayName')) body.displayName = revision.displayName;
  if (differs('summary')) body.summary = revision.summary;
  if (differs('overridePostDate')) body.overridePostDate = revision.overridePostDate;
  if (differs('seo')) body.seo = revision.seo;
  if (differs('calendar')) body.calendar = revision.calendar;
  if (differs('code')) {
    body.code = {
      head: revision.code.head ?? null,
      afterStart: revision.code.afterStart ?? null,
      beforeClose: revision.code.beforeClose ?? null,
    };
  }
  const ids = new Set(current.body.flatMap((r) => r.widgets.flatMap((w) => (w.id === undefined ? [] : [w.id]))));
  const regions = new Map<string, RegionInput>();
  if (revision.templateName === current.templateName) {
    for (const r of current.body) if (r.editable) regions.set(r.name, { name: r.name, widgets: [] });
  }
  for (const r of revision.body) {
    if (!r.editable) continue;
    const own = r.widgets.filter((w) => w.scope === 'local');
    regions.set(r.name, { name: r.name, widgets: own.map((w) => widgetInput(w, ids)) });
  }
  if (regions.size) body.body = [...regions.values()];
  return body;
}
