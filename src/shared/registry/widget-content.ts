import { assetTypeDef } from './asset-types.js';
import type { FieldDef } from './fields.js';
import { widgetTypeDef } from './widget-types.js';

/**
 * The fields a widget's content may hold: those of its asset type, or its `localFields` when it has no asset
 * type. Pages and templates validate widget content with these; the page editor builds its forms from them.
 */
export function widgetContentFields(widgetType: string): readonly FieldDef[] {
  const w = widgetTypeDef(widgetType);
  if (!w) return [];
  return w.assetType ? (assetTypeDef(w.assetType)?.fields ?? []) : (w.localFields ?? []);
}
