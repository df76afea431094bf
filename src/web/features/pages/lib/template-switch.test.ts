import { describe, expect, it } from 'vitest';
import type { Page } from '../../../../shared/api/pages';
import { defaultMoves, DROP, switchBody } from './template-switch';

const widget = (id: string) => ({
  id,
  type: 'cmsRichText' as const,
  scope: 'local' as const,
  editable: true,
  asset: { fields: { text: id } },
});
const page = {
  body: [
    { name: 'header', type: 'TEMPLATE', editable: false, widgets: [] },
    { name: 'main', type: 'PAGE', editable: true, widgets: [widget('m1'), widget('m2')] },
    { name: 'sidebar', type: 'PAGE', editable: true, widgets: [widget('s1')] },
    { name: 'empty', type: 'TEMPLATE', editable: true, widgets: [] },
  ],
} as unknown as Page;

describe('template switch', () => {
  it('sends content to the region of the same name, or drops it', () => {
    expect(defaultMoves(page, ['main', 'aside'])).toEqual([
      { from: 'main', count: 2, to: 'main' },
      { from: 'sidebar', count: 1, to: DROP },
    ]);
  });

  it('lists each receiving region’s widgets by id, and empties a region whose content goes elsewhere', () => {
    const moves = [
      { from: 'main', count: 2, to: 'aside' },
      { from: 'sidebar', count: 1, to: 'aside' },
    ];
    expect(switchBody(page, moves, ['main', 'aside'])).toEqual([
      {
        name: 'aside',
        type: 'PAGE',
        editable: true,
        widgets: ['m1', 'm2', 's1'].map((id) => ({ id, type: 'cmsRichText' })),
      },
      { name: 'main', type: 'PAGE', editable: true, widgets: [] },
    ]);
    // A dropped region the new template lacks is not sent: the switch drops it.
    expect(switchBody(page, [{ from: 'sidebar', count: 1, to: DROP }], ['main'])).toEqual([]);
  });
});
