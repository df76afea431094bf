import { describe, expect, it } from 'vitest';
import type { Page, Widget } from '../../../../shared/api/pages';
import { docOf, planSave, rebase, type EditorDoc } from './editor-doc';

const widget = (id: string, type: Widget['type'], fields: Record<string, string | null>, shared?: string): Widget => ({
  id,
  type,
  scope: 'local',
  editable: true,
  asset: shared ? { fields, name: shared, folderPath: 'Assets/snippets' } : { fields },
});

/** A page of the `two-column` kind: a template header, two editable regions. */
function pageOf(): Page {
  return {
    id: '1-101-1',
    name: 'news',
    siteName: 'demo',
    folderPath: '',
    displayName: 'News',
    templateName: 'two-column',
    summary: null,
    overridePostDate: null,
    workflow: { name: 'Default Workflow', state: 'Draft', checkedOut: false, checkedOutUser: '' },
    seo: { browserTitle: '', hideSearch: false, tags: ['news'], categories: [], metaDescription: '' },
    calendar: { startDate: null, endDate: null, calendars: null },
    code: {},
    body: [
      {
        name: 'header',
        type: 'TEMPLATE',
        editable: false,
        widgets: [
          { type: 'cmsNavon', scope: 'template', editable: false, asset: { fields: { layout: 'horizontal' } } },
        ],
      },
      {
        name: 'main',
        type: 'PAGE',
        editable: true,
        widgets: [
          widget('w1', 'cmsRichText', { text: '<p>One</p>' }),
          widget('w2', 'cmsRawHtml', { html: '<b>Two</b>' }),
          widget('w3', 'cmsTitle', { heading_level: 'h1', prefix: 'A' }),
        ],
      },
      {
        name: 'sidebar',
        type: 'PAGE',
        editable: true,
        widgets: [widget('w4', 'cmsSimpleText', { text: 'Hours' }, 'hours')],
      },
    ],
  };
}

const edit = (page: Page, change: (doc: EditorDoc) => void) => {
  const doc = structuredClone(docOf(page));
  change(doc);
  return doc;
};

describe('planSave', () => {
  it('sends nothing when nothing changed', () => {
    const page = pageOf();
    expect(planSave(page, docOf(page))).toBeNull();
    // An edit undone is no change either ("" and null are the same unset value).
    expect(
      planSave(
        page,
        edit(page, (d) => (d.props.summary = '')),
      ),
    ).toBeNull();
  });

  it('sends templateName and only the properties that changed, nested members alone', () => {
    const page = pageOf();
    const doc = edit(page, (d) => {
      d.props.displayName = 'Latest news';
      d.props.tags = ['news', 'press'];
      d.props.codeHead = '<meta name="x">';
    });
    expect(planSave(page, doc)).toEqual({
      templateName: 'two-column',
      displayName: 'Latest news',
      seo: { tags: ['news', 'press'] },
      code: { head: '<meta name="x">' },
    });
  });

  it('sends a changed region whole: unchanged widgets by id alone, the edited one with only its changed fields', () => {
    const page = pageOf();
    const doc = edit(page, (d) => {
      d.regions.main![2]!.fields = { heading_level: 'h2', prefix: '' };
    });
    expect(planSave(page, doc)).toEqual({
      templateName: 'two-column',
      body: [
        {
          name: 'main',
          type: 'PAGE',
          widgets: [
            { id: 'w1', type: 'cmsRichText' },
            { id: 'w2', type: 'cmsRawHtml' },
            { id: 'w3', type: 'cmsTitle', asset: { fields: { heading_level: 'h2', prefix: null } } },
          ],
        },
      ],
    });
  });

  it('sends a new widget without an id and with its set fields; a reorder as ids in the new order', () => {
    const page = pageOf();
    const doc = edit(page, (d) => {
      const [a, b, c] = d.regions.main!;
      d.regions.main = [c!, a!, b!, { key: 'new-1', type: 'cmsRichText', fields: { text: '<p>New</p>', x: '' } }];
    });
    expect(planSave(page, doc)!.body).toEqual([
      {
        name: 'main',
        type: 'PAGE',
        widgets: [
          { id: 'w3', type: 'cmsTitle' },
          { id: 'w1', type: 'cmsRichText' },
          { id: 'w2', type: 'cmsRawHtml' },
          { type: 'cmsRichText', asset: { fields: { text: '<p>New</p>' } } },
        ],
      },
    ]);
  });

  it('sends both regions when a widget moves between them, and nothing for the template region', () => {
    const page = pageOf();
    const doc = edit(page, (d) => {
      d.regions.sidebar!.push(d.regions.main!.shift()!);
    });
    const plan = planSave(page, doc)!;
    expect(plan.body!.map((r) => [r.name, r.widgets.map((w) => w.id)])).toEqual([
      ['main', ['w2', 'w3']],
      ['sidebar', ['w4', 'w1']],
    ]);
  });

  it('shares, links and detaches: {name, folderPath} to share or link; a detached copy is a new local widget', () => {
    const page = pageOf();
    const doc = edit(page, (d) => {
      d.regions.main![0]!.shared = { name: 'intro', folderPath: 'Assets/shared' };
      d.regions.main![0]!.share = 'create';
      d.regions.main![1]!.shared = { name: 'banner', folderPath: 'Assets/snippets' };
      d.regions.main![1]!.share = 'link';
      d.regions.sidebar = [{ key: 'new-2', type: 'cmsSimpleText', fields: { text: 'Hours' } }];
    });
    expect(planSave(page, doc)!.body).toEqual([
      {
        name: 'main',
        type: 'PAGE',
        widgets: [
          { id: 'w1', type: 'cmsRichText', asset: { name: 'intro', folderPath: 'Assets/shared' } },
          { id: 'w2', type: 'cmsRawHtml', asset: { name: 'banner', folderPath: 'Assets/snippets' } },
          { id: 'w3', type: 'cmsTitle' },
        ],
      },
      { name: 'sidebar', type: 'PAGE', widgets: [{ type: 'cmsSimpleText', asset: { fields: { text: 'Hours' } } }] },
    ]);
  });

  it('never sends the fields of a linked shared asset (they are read-only on a page)', () => {
    const page = pageOf();
    const doc = edit(page, (d) => {
      d.regions.sidebar![0]!.fields = { text: 'Changed here' };
    });
    expect(planSave(page, doc)).toBeNull();
  });

  it('when overwriting, sends again with all its content a widget of mine that the other save removed', () => {
    const page = pageOf();
    const doc = edit(page, (d) => {
      d.regions.main![1]!.fields = { html: '<b>Mine</b>' };
    });
    const plan = planSave(page, doc, new Set(['w1', 'w3', 'w4']))!;
    expect(plan.body![0]!.widgets).toEqual([
      { id: 'w1', type: 'cmsRichText' },
      { type: 'cmsRawHtml', asset: { fields: { html: '<b>Mine</b>' } } },
      { id: 'w3', type: 'cmsTitle' },
    ]);
  });
});

describe('rebase', () => {
  it('gives the widgets the server created their ids, keeping edits made while the save ran', () => {
    const page = pageOf();
    const sent = edit(page, (d) => {
      d.regions.main!.push({ key: 'new-9', type: 'cmsRichText', fields: { text: '<p>N</p>' } });
    });
    const saved = structuredClone(page);
    saved.body[1]!.widgets.push(widget('w9', 'cmsRichText', { text: '<p>N</p>' }));
    const typedMeanwhile = structuredClone(sent);
    typedMeanwhile.props.displayName = 'Typed meanwhile';
    const after = rebase(typedMeanwhile, sent, saved);
    expect(after.regions.main![3]).toMatchObject({ key: 'new-9', id: 'w9' });
    expect(after.props.displayName).toBe('Typed meanwhile');
    expect(planSave(saved, after)).toEqual({ templateName: 'two-column', displayName: 'Typed meanwhile' });
    // Unchanged since sent: the server's version, nothing left to save.
    expect(planSave(saved, rebase(sent, sent, saved))).toBeNull();
  });
});
