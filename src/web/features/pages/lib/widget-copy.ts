import { fieldsForCopy, widgetContentFields } from '../../../../shared/registry';
import { isLinkedWidget, type EditorDoc, type EditorWidget, type Fields } from './editor-doc';

/**
 * The content of a duplicate of `widget` on the page being edited: its fields, with every unique name (a form's,
 * a poll's, a calendar's) numbered anew so that it differs from those of the page's other widgets of its type.
 * A copy that links the same shared asset keeps the asset's fields: it is the same content.
 */
export function fieldsOfDuplicate(widget: EditorWidget, doc: EditorDoc): Fields {
  if (isLinkedWidget(widget)) return { ...widget.fields };
  const sameType = Object.values(doc.regions)
    .flat()
    .filter((w) => w.type === widget.type)
    .map((w) => w.fields);
  return fieldsForCopy(widgetContentFields(widget.type), widget.fields, sameType);
}
