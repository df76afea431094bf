import type { AssetMetadata } from '../../../../shared/api/assets';
import { WIDGET_TYPES, type WidgetTypeDef } from '../../../../shared/registry';

/**
 * How well a widget type matches what was typed, best first: the label itself, the label's start, the start of a
 * word of the label, anywhere in the label, the type's id, then the description. Null: no match.
 */
export function widgetMatchRank(w: WidgetTypeDef, query: string): number | null {
  const q = query.trim().toLowerCase();
  if (q === '') return 0;
  const label = w.label.toLowerCase();
  if (label === q) return 0;
  if (label.startsWith(q)) return 1;
  if (label.split(/[\s-]+/).some((word) => word.startsWith(q))) return 2;
  if (label.includes(q)) return 3;
  if (w.type.toLowerCase().includes(q)) return 4;
  const text = `${label} ${w.description.toLowerCase()}`;
  if (w.description.toLowerCase().includes(q)) return 5;
  // Several words: each somewhere in the label or the description.
  const words = q.split(/\s+/).filter(Boolean);
  return words.length > 1 && words.every((word) => text.includes(word)) ? 6 : null;
}

/** The widget types that match `query`, best match first (the palette's order among equals). */
export function rankWidgetTypes(query: string): WidgetTypeDef[] {
  return WIDGET_TYPES.map((w, order) => ({ w, order, rank: widgetMatchRank(w, query) }))
    .filter((x): x is { w: WidgetTypeDef; order: number; rank: number } => x.rank !== null)
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map((x) => x.w);
}

/** The widget type that shows a shared asset of the library (an image widget for an image), if any. */
export function widgetTypeForAsset(asset: Pick<AssetMetadata, 'type'>): WidgetTypeDef | undefined {
  return WIDGET_TYPES.find((w) => w.assetType === asset.type);
}
