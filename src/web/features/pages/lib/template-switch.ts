import type { Page, RegionInput } from '../../../../shared/api/pages';

/** What a region's content becomes when the page switches template: "drop", or the new region it moves to. */
export const DROP = '_drop';

/** A region of the page that holds content, and where it goes. */
export interface RegionMove {
  from: string;
  count: number;
  /** A region of the new template that pages fill, or `DROP`. */
  to: string;
}

/** The page's regions with content, each going to the new template's region of the same name, or dropped. */
export function defaultMoves(page: Page, targetRegions: readonly string[]): RegionMove[] {
  return page.body
    .filter((r) => r.editable && r.widgets.length > 0)
    .map((r) => ({ from: r.name, count: r.widgets.length, to: targetRegions.includes(r.name) ? r.name : DROP }));
}

/**
 * The `body` of the PUT that switches template and moves the content as `moves` say: every region of the new
 * template that pages fill (`targetRegions`) and that receives content, or that has the name of a region whose content goes elsewhere (so what it held
 * is not kept by name), lists the widgets it gets by id, in the page's order. Content sent nowhere is dropped by
 * the switch.
 */
export function switchBody(page: Page, moves: readonly RegionMove[], targetRegions: readonly string[]): RegionInput[] {
  const targets = [...new Set(moves.flatMap((m) => (m.to === DROP ? [] : [m.to])))];
  const emptied = moves.filter((m) => m.to !== m.from && targetRegions.includes(m.from)).map((m) => m.from);
  const names = [...targets, ...emptied.filter((n) => !targets.includes(n))];
  const widgetsOf = (name: string) => page.body.find((r) => r.name === name)?.widgets ?? [];
  return names.map((name) => ({
    name,
    type: 'PAGE',
    editable: true,
    widgets: moves
      .filter((m) => m.to === name)
      .flatMap((m) => widgetsOf(m.from))
      .flatMap((w) => (w.id === undefined ? [] : [{ id: w.id, type: w.type }])),
  }));
}
