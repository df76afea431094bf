import type { FieldError } from '../../../../shared/api/errors';
import type { PagePutBody } from '../../../../shared/api/pages';
import { widgetContentFields } from '../../../../shared/registry';
import { widgetLabel, type EditorDoc, type Fields } from './editor-doc';

/** A reason a save did not go through, tied to the widget and field it is about when there is one. */
export interface SaveProblem {
  /** The widget's key in the editor (null: about the page itself). */
  key: string | null;
  region: string | null;
  /** The field's key in the widget's content (null: about the widget as a whole, or the page). */
  fieldKey: string | null;
  /** Where, in words: "Poll in banner — Question". */
  where: string;
  message: string;
  /** The widget's fields when the problem was found: once they change, the problem may be gone. */
  fields: Fields | null;
}

/** "Poll in banner — Question" (or "Poll in banner" without a field). */
export function whereOf(type: string, region: string, fieldLabel: string | null): string {
  return `${widgetLabel(type)} in ${region}${fieldLabel ? ` — ${fieldLabel}` : ''}`;
}

const WIDGET_PATH = /^body\.body\.(\d+)\.widgets\.(\d+)(?:\.asset(?:\.fields\.([^.]+))?)?/;

/** The page properties' names for the PUT body's paths ("body.seo.browserTitle" → "Browser title"). */
const PROPERTY_LABELS: Record<string, string> = {
  displayName: 'Display name',
  summary: 'Summary',
  overridePostDate: 'Post date',
  'seo.browserTitle': 'Browser title',
  'seo.metaDescription': 'Meta description',
  'seo.tags': 'Tags',
  'seo.categories': 'Categories',
  'calendar.startDate': 'Start date',
  'calendar.endDate': 'End date',
  'code.head': 'Code in the head',
  'code.afterStart': 'Code after the body starts',
  'code.beforeClose': 'Code before the body closes',
};

/**
 * A 400's field errors as problems of the widgets and fields they name: `body.body.<i>.widgets.<j>…` is widget j
 * of the i-th region sent (`sent`), as it was in `doc` when sent.
 */
export function serverProblems(errors: readonly FieldError[], sent: PagePutBody, doc: EditorDoc): SaveProblem[] {
  return errors.map((e): SaveProblem => {
    const m = WIDGET_PATH.exec(e.path);
    const region = m ? sent.body?.[Number(m[1])]?.name : undefined;
    const widget = region ? doc.regions[region]?.[Number(m![2])] : undefined;
    if (m && region && widget) {
      const fieldKey = m[3] ?? null;
      const def = fieldKey ? widgetContentFields(widget.type).find((d) => d.key === fieldKey) : undefined;
      const label = fieldKey ? (def?.label ?? fieldKey) : null;
      return {
        key: widget.key,
        region,
        fieldKey,
        where: whereOf(widget.type, region, label),
        message: label && !e.message.startsWith(label) ? `${label} ${e.message}.` : e.message,
        fields: widget.fields,
      };
    }
    const property = e.path.replace(/^body\./, '');
    const where = PROPERTY_LABELS[property] ? `Properties — ${PROPERTY_LABELS[property]}` : 'The page';
    return { key: null, region: null, fieldKey: null, where, message: e.message, fields: null };
  });
}

/** The problems still standing in `doc`: those of a widget whose fields changed since, or that is gone, are not. */
export function standingProblems(problems: readonly SaveProblem[], doc: EditorDoc): SaveProblem[] {
  if (problems.length === 0) return [];
  const fieldsOf = new Map<string, Fields>();
  for (const widgets of Object.values(doc.regions)) for (const w of widgets) fieldsOf.set(w.key, w.fields);
  return problems.filter((p) => p.key === null || fieldsOf.get(p.key) === p.fields);
}

/** The toast's sentence for a save that did not go through: the first problem, and how many more. */
export function problemsSummary(problems: readonly SaveProblem[]): string {
  const first = problems[0];
  if (!first) return 'Some fields need your attention first.';
  const more = problems.length - 1;
  return `${first.where}: ${first.message}${more > 0 ? ` And ${more} more (listed above the page).` : ''}`;
}
