import { describe, expect, it } from 'vitest';
import type { Page, Widget } from '../../../../shared/api/pages';
import { textOf } from '../../../kit/saving/conflict-diff';
import { diffWords } from '../../../kit/saving/word-diff';
import { pageRevisionRows } from './page-history';

const widget = (id: string, type: Widget['type'], fields: Record<string, string | null>): Widget => ({
  id,
  type,
  scope: 'local',
  editable: true,
  asset: { fields },
});

function pageOf(main: Widget[], sidebar: Widget[] = [], displayName = 'News'): Page {
  return {
    id: '1-101-1',
    name: 'news',
    siteName: 'demo',
    folderPath: '',
    displayName,
    templateName: 'two-column',
    summary: null,
    overridePostDate: null,
    workflow: { name: 'Default Workflow', state: 'Draft', checkedOut: false, checkedOutUser: '' },
    seo: { browserTitle: '', hideSearch: false, tags: [], categories: [], metaDescription: '' },
    calendar: { startDate: null, endDate: null, calendars: null },
    code: {},
    body: [
      { name: 'main', type: 'PAGE', editable: true, widgets: main },
      { name: 'sidebar', type: 'PAGE', editable: true, widgets: sidebar },
    ],
  };
}

const one = widget('w1', 'cmsRichText', { text: '<h2>Opening hours</h2><p>Monday to Friday</p>' });
const two = widget('w2', 'cmsSimpleText', { text: 'Call us' });
const three = widget('w3', 'cmsRawHtml', { html: '<b>Map</b>' });

describe('pageRevisionRows', () => {
  it('finds nothing between a version and itself', () => {
    expect(pageRevisionRows(pageOf([one, two]), pageOf([one, two]))).toEqual([]);
  });

  it('names a changed property and a changed rich text field, one block a line', () => {
    const after = widget('w1', 'cmsRichText', { text: '<h2>Opening hours</h2><p>Monday to Saturday</p>' });
    const rows = pageRevisionRows(pageOf([one], [], 'News'), pageOf([after], [], 'Latest news'));
    expect(rows).toContainEqual(
      expect.objectContaining({ group: 'Properties', label: 'Display name', before: 'News', theirs: 'Latest news' }),
    );
    const text = rows.find((r) => r.key.startsWith('w1:'));
    expect(text).toMatchObject({
      kind: 'changed',
      group: 'Region “main”',
      before: 'Opening hours\nMonday to Friday',
      theirs: 'Opening hours\nMonday to Saturday',
    });
    expect(text!.label).toMatch(/widget “Opening hours.*” · /);
    expect(diffWords(text!.before!, text!.theirs)).toEqual([
      { op: 'same', text: 'Opening hours\nMonday to ' },
      { op: 'del', text: 'Friday' },
      { op: 'add', text: 'Saturday' },
    ]);
  });

  it('names widgets added, removed and moved, and an insertion moves nothing', () => {
    // w3 added before w1; w2 moved to the sidebar.
    const inserted = pageRevisionRows(pageOf([one, two]), pageOf([three, one, two]));
    expect(inserted.map((r) => [r.key, r.kind])).toEqual([['w3', 'added']]);
    expect(inserted[0]!.theirs).toContain('Map');

    const rows = pageRevisionRows(pageOf([one, two, three]), pageOf([three, one], [two]));
    const kinds = Object.fromEntries(rows.map((r) => [r.key, r.kind]));
    expect(kinds).toEqual({ w3: 'moved', w1: 'moved', w2: 'moved' });
    expect(rows.find((r) => r.key === 'w2')).toMatchObject({
      before: 'Region “main”, position 2',
      theirs: 'Region “sidebar”, position 1',
      group: 'Region “sidebar”',
    });

    const removed = pageRevisionRows(pageOf([one, two]), pageOf([one]));
    expect(removed).toEqual([
      expect.objectContaining({ key: 'w2', kind: 'removed', before: expect.stringContaining('Call us') as string }),
    ]);
  });
});

describe('textOf with blocks', () => {
  it('puts each block on a line of its own', () => {
    expect(textOf('<h2>A &amp; B</h2><ul><li>one</li><li>two</li></ul><p>x<br>y</p>', true)).toBe(
      'A & B\none\ntwo\nx\ny',
    );
    expect(textOf('<h2>A</h2><p>B</p>')).toBe('A B');
  });
});
