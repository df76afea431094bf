import type { Page, Widget } from '../../../../shared/api/pages';
import { diffFields, sameValue, type ConflictRow, type DiffField } from '../../../kit/saving/conflict-diff';
import { propsOf, widgetExcerpt, widgetLabel, type EditorDoc, type EditorWidget, type PageProps } from './editor-doc';

/** The page's properties as the conflict dialog and the history name them. */
export const PROP_FIELDS: readonly DiffField<PageProps>[] = [
  { key: 'displayName', label: 'Display name' },
  { key: 'summary', label: 'Summary' },
  { key: 'overridePostDate', label: 'Post date' },
  { key: 'browserTitle', label: 'Browser title', group: 'Search engines' },
  { key: 'metaDescription', label: 'Meta description', group: 'Search engines' },
  { key: 'hideSearch', label: 'Hidden from search', group: 'Search engines' },
  { key: 'tags', label: 'Tags', group: 'Search engines' },
  { key: 'categories', label: 'Categories', group: 'Search engines' },
  { key: 'startDate', label: 'Calendar start', group: 'Calendar' },
  { key: 'endDate', label: 'Calendar end', group: 'Calendar' },
  { key: 'codeHead', label: 'Code in <head>', group: 'Code' },
  { key: 'codeAfterStart', label: 'Code after <body> starts', group: 'Code' },
  { key: 'codeBeforeClose', label: 'Code before </body>', group: 'Code' },
];

/** Where a widget sits on a page. */
export interface Placed {
  region: string;
  index: number;
  widget: Widget;
}

/** The widgets of the page's editable regions, by id. */
export function placesOf(page: Page): Map<string, Placed> {
  const out = new Map<string, Placed>();
  for (const r of page.body) {
    if (!r.editable) continue;
    r.widgets.forEach((widget, index) => {
      if (widget.id) out.set(widget.id, { region: r.name, index, widget });
    });
  }
  return out;
}

/** A widget's content in a few words. */
export const excerptOf = (w: Widget) =>
  widgetExcerpt({
    type: w.type,
    fields: w.asset.fields,
    shared: w.asset.name !== undefined ? { name: w.asset.name, folderPath: w.asset.folderPath ?? '' } : undefined,
  });

const contentOf = (w: Widget) => ({ fields: w.asset.fields, name: w.asset.name, folderPath: w.asset.folderPath });

/**
 * What the other save changed on the page (`base` → `theirs`): each property, and widget by widget — added,
 * removed, moved or with changed content — marking what I changed too (`mine`).
 */
export function pageConflictRows(base: Page, theirs: Page, mine: EditorDoc): ConflictRow[] {
  const rows: ConflictRow[] = [];
  if (base.templateName !== theirs.templateName) {
    rows.push({
      key: 'templateName',
      group: 'Properties',
      label: 'Template',
      kind: 'changed',
      before: base.templateName,
      theirs: theirs.templateName,
    });
  }
  rows.push(...diffFields(PROP_FIELDS, propsOf(base), propsOf(theirs), mine.props));

  const before = placesOf(base);
  const after = placesOf(theirs);
  const mineById = new Map<string, EditorWidget>();
  for (const widgets of Object.values(mine.regions)) for (const w of widgets) if (w.id) mineById.set(w.id, w);
  const group = (region: string) => `Region “${region}”`;
  const name = (w: Widget) => `${widgetLabel(w.type)} widget`;

  for (const [id, a] of after) {
    const b = before.get(id);
    if (!b) {
      rows.push({ key: id, group: group(a.region), label: name(a.widget), kind: 'added', theirs: excerptOf(a.widget) });
      continue;
    }
    const mineW = mineById.get(id);
    if (!sameValue(contentOf(a.widget), contentOf(b.widget))) {
      const myExcerpt = mineW ? widgetExcerpt(mineW) : '(you removed it)';
      rows.push({
        key: id,
        group: group(a.region),
        label: name(a.widget),
        kind: 'changed',
        before: excerptOf(b.widget),
        theirs: excerptOf(a.widget),
        yours: mineW && sameValue(mineW.fields, b.widget.asset.fields) && !mineW.share ? undefined : myExcerpt,
      });
    } else if (a.region !== b.region || a.index !== b.index) {
      rows.push({
        key: id,
        group: group(a.region),
        label: name(a.widget),
        kind: 'moved',
        before: `${b.region}, position ${b.index + 1}`,
        theirs: `${a.region === b.region ? 'Now' : `Moved to “${a.region}”,`} position ${a.index + 1}: ${excerptOf(a.widget)}`,
      });
    }
  }
  for (const [id, b] of before) {
    if (after.has(id)) continue;
    const mineW = mineById.get(id);
    rows.push({
      key: id,
      group: group(b.region),
      label: name(b.widget),
      kind: 'removed',
      theirs: `Removed: ${excerptOf(b.widget)}`,
      yours: mineW && !sameValue(mineW.fields, b.widget.asset.fields) ? widgetExcerpt(mineW) : undefined,
    });
  }
  return rows;
}
