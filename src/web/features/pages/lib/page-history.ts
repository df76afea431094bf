import type { Page, Widget } from '../../../../shared/api/pages';
import { widgetContentFields } from '../../../../shared/registry';
import { diffFields, fullValue, sameValue, type ConflictRow } from '../../../kit/saving/conflict-diff';
import { propsOf, widgetLabel } from './editor-doc';
import { excerptOf, placesOf, PROP_FIELDS, type Placed } from './page-conflict';

/** A value for the comparison: rich text one block a line. */
const show = (value: unknown) => fullValue(value, true);

const isSet = (v: string | null | undefined) => v !== null && v !== undefined && v !== '';

/** The fields a widget's content has (its type's, or whatever it holds when the type is unknown). */
function fieldsOf(w: Widget): { key: string; label: string }[] {
  const defs = widgetContentFields(w.type);
  return defs.length
    ? defs.map((d) => ({ key: d.key, label: d.label }))
    : Object.keys(w.asset.fields).map((key) => ({ key, label: key }));
}

/** The whole content of a widget as text: each field set, labelled; a linked shared asset named. */
function widgetText(w: Widget): string {
  const lines = fieldsOf(w)
    .filter((f) => isSet(w.asset.fields[f.key]))
    .map((f) => `${f.label}: ${show(w.asset.fields[f.key])}`);
  if (w.asset.name !== undefined)
    lines.unshift(`Shared asset ${[w.asset.folderPath, w.asset.name].filter(Boolean).join('/')}`);
  return lines.length ? lines.join('\n') : '(empty)';
}

/** Each widget's position among the widgets its region holds in both versions (so an insertion moves nothing). */
function ranks(places: Map<string, Placed>, other: Map<string, Placed>): Map<string, number> {
  const byRegion = new Map<string, Placed[]>();
  for (const p of places.values()) {
    if (other.get(p.widget.id!)?.region !== p.region) continue;
    byRegion.set(p.region, [...(byRegion.get(p.region) ?? []), p]);
  }
  const out = new Map<string, number>();
  for (const list of byRegion.values())
    list.sort((x, y) => x.index - y.index).forEach((p, i) => out.set(p.widget.id!, i));
  return out;
}

const where = (p: Placed) => `Region “${p.region}”, position ${p.index + 1}`;

/**
 * What changed from one version of a page to another, for the history's comparison: the template, each property,
 * and widget by widget — added and removed (with their whole content), moved (where from, where to), and each
 * changed field of a widget with its whole text (rich text one block a line, so the words changed can be marked).
 */
export function pageRevisionRows(before: Page, after: Page): ConflictRow[] {
  const rows: ConflictRow[] = [];
  if (before.templateName !== after.templateName) {
    rows.push({
      key: 'templateName',
      group: 'Properties',
      label: 'Template',
      kind: 'changed',
      before: before.templateName,
      theirs: after.templateName,
    });
  }
  rows.push(...diffFields(PROP_FIELDS, propsOf(before), propsOf(after), undefined, 'Properties', show));

  const was = placesOf(before);
  const now = placesOf(after);
  const rankWas = ranks(was, now);
  const rankNow = ranks(now, was);
  const group = (p: Placed) => `Region “${p.region}”`;
  const name = (w: Widget) => `${widgetLabel(w.type)} widget “${excerptOf(w)}”`;

  for (const [id, a] of now) {
    const b = was.get(id);
    if (!b) {
      rows.push({ key: id, group: group(a), label: name(a.widget), kind: 'added', theirs: widgetText(a.widget) });
      continue;
    }
    if (a.region !== b.region || rankWas.get(id) !== rankNow.get(id)) {
      rows.push({ key: id, group: group(a), label: name(a.widget), kind: 'moved', before: where(b), theirs: where(a) });
    }
    if (
      (a.widget.asset.name ?? null) !== (b.widget.asset.name ?? null) ||
      a.widget.asset.folderPath !== b.widget.asset.folderPath
    ) {
      rows.push({
        key: `${id}:shared`,
        group: group(a),
        label: `${name(a.widget)} · shared asset`,
        kind: 'changed',
        before: b.widget.asset.name ?? '(not shared)',
        theirs: a.widget.asset.name ?? '(not shared)',
      });
    }
    if (sameValue(a.widget.asset.fields, b.widget.asset.fields)) continue;
    const fields = fieldsOf(a.widget).map((f) => ({
      key: f.key,
      label: `${name(a.widget)} · ${f.label}`,
      group: group(a),
    }));
    for (const row of diffFields(fields, b.widget.asset.fields, a.widget.asset.fields, undefined, group(a), show)) {
      rows.push({ ...row, key: `${id}:${row.key}` });
    }
  }
  for (const [id, b] of was) {
    if (now.has(id)) continue;
    rows.push({
      key: id,
      group: group(b),
      label: name(b.widget),
      kind: 'removed',
      before: widgetText(b.widget),
      theirs: '',
    });
  }
  return rows;
}
