import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, problem, type Handlers } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { TemplateEditor } from './template-editor';
import type { TemplatesNavigation } from './templates-screen';

const ARTICLE = {
  name: 'article',
  label: 'Article',
  description: 'Text',
  regions: [
    {
      name: 'header',
      editable: false,
      widgets: [{ type: 'cmsNavon', scope: 'template', editable: false, asset: { fields: { levels: '2' } } }],
    },
    { name: 'title', editable: true, widgets: [] },
    { name: 'body', editable: true, widgets: [] },
  ],
};

function navigation(): TemplatesNavigation {
  return {
    templatesHref: '/templates',
    templateHref: (n) => (n === null ? '/templates?new' : `/templates/${n}`),
    open: vi.fn(),
    pageHref: (p) => `/pages/${p}`,
    sectionHref: (p) => `/sites/${p}`,
    trashHref: '/trash',
  };
}

function renderEditor(handlers: Handlers) {
  return renderWithProviders(<TemplateEditor name="article" navigation={navigation()} />, {
    'GET /cms/rest/templates/article': () => json(ARTICLE, 200, { etag: '"v1"' }),
    'GET /cms/rest/templates': () => json([]),
    ...handlers,
  });
}

describe('TemplateEditor', () => {
  it('saves renamed regions with their previous names, in the new order, fixed ones with their widgets', async () => {
    const { user, server } = renderEditor({
      'PUT /cms/rest/templates/article': () => json(ARTICLE, 200, { etag: '"v2"' }),
    });
    const body = await screen.findByRole('textbox', { name: 'Name of region 3' });
    await user.clear(body);
    await user.type(body, 'content');
    expect(screen.getByText('Renamed from “body”: pages keep what they hold in it.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Move region “title” down' }));
    // The focus stays with the moved region (now last, so on its Move up: Move down is off).
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move region “title” up' })),
    );
    await user.click(screen.getByRole('button', { name: 'Save template' }));

    await waitFor(() => expect(server.requests.some((r) => r.method === 'PUT')).toBe(true));
    const put = server.requests.find((r) => r.method === 'PUT')!;
    expect(put.headers.get('if-match')).toBe('"v1"');
    expect(put.body).toEqual({
      label: 'Article',
      description: 'Text',
      regions: [
        { name: 'header', editable: false, widgets: ARTICLE.regions[0]!.widgets },
        { name: 'content', previousName: 'body', editable: true, widgets: [] },
        { name: 'title', editable: true, widgets: [] },
      ],
    });
  });

  it('gives a fixed region widgets edited with the kit’s forms, and adds a region before the footer', async () => {
    const { user, server } = renderEditor({
      'PUT /cms/rest/templates/article': () => json(ARTICLE, 200, { etag: '"v2"' }),
    });
    await screen.findByRole('textbox', { name: 'Name of region 1' });
    // "body" is the last region and pages fill it: a new region goes at the end.
    await user.click(screen.getByRole('button', { name: 'Add region' }));
    await user.type(screen.getByRole('textbox', { name: 'Name of region 4' }), 'footer');
    await user.click(screen.getAllByRole('switch', { name: 'Filled by pages' })[3]!);
    await user.click(screen.getByRole('button', { name: 'Add widget to footer' }));
    await user.click(await screen.findByRole('menuitem', { name: /Simple text/ }));
    await user.type(await screen.findByRole('textbox', { name: 'Text' }), '© Acme');
    // Now the template ends with a fixed region: the next one goes before it.
    await user.click(screen.getByRole('button', { name: 'Add region' }));
    await user.type(screen.getByRole('textbox', { name: 'Name of region 4' }), 'aside');
    await user.click(screen.getByRole('button', { name: 'Save template' }));

    await waitFor(() => expect(server.requests.some((r) => r.method === 'PUT')).toBe(true));
    const put = server.requests.find((r) => r.method === 'PUT')!;
    expect((put.body as { regions: unknown[] }).regions.slice(3)).toEqual([
      { name: 'aside', editable: true, widgets: [] },
      {
        name: 'footer',
        editable: false,
        widgets: [{ type: 'cmsSimpleText', scope: 'template', editable: false, asset: { fields: { text: '© Acme' } } }],
      },
    ]);
  }, 60_000);

  it('creates a template create-only, and says the name exists when someone created it meanwhile (412)', async () => {
    const { user, server } = renderWithProviders(<TemplateEditor name={null} navigation={navigation()} />, {
      'GET /cms/rest/templates': () => json([]),
      'GET /cms/rest/templates/landing': () => problem(404, 'TEMPLATE_NOT_FOUND', 'No template "landing".'),
      'PUT /cms/rest/templates/landing': () =>
        problem(412, 'PRECONDITION_FAILED', 'Template "landing" already exists (If-None-Match).'),
    });
    await user.type(await screen.findByRole('textbox', { name: 'Label' }), 'Landing');
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'landing');
    await user.type(screen.getByRole('textbox', { name: 'Name of region 1' }), 'main');
    await user.click(screen.getByRole('button', { name: 'Create template' }));
    expect(await screen.findByText('A template named “landing” exists already.')).toBeTruthy();
    const put = server.requests.find((r) => r.method === 'PUT')!;
    expect(put.headers.get('if-none-match')).toBe('*');
    expect(put.headers.get('if-match')).toBeNull();
  });

  it('says that filling a fixed region drops its template widgets, and checks names before sending', async () => {
    const { user, server } = renderEditor({});
    const header = await screen.findByRole('textbox', { name: 'Name of region 1' });
    await user.click(screen.getAllByRole('switch', { name: 'Filled by pages' })[0]!);
    expect(screen.getByText('Its template widget (Navigation bar) will be removed when you save.')).toBeTruthy();
    await user.clear(header);
    await user.type(header, 'title');
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(await screen.findAllByText('Another region is called “title”.')).toHaveLength(2);
    expect(server.requests.filter((r) => r.method === 'PUT')).toEqual([]);
  });

  it('shows a refusal to drop content as the pages that hold it, as links', async () => {
    const { user } = renderEditor({
      'PUT /cms/rest/templates/article': () =>
        problem(409, 'TEMPLATE_IN_USE', 'Pages hold content in "body" (1 page); keep those regions editable.', {
          regions: [{ region: 'body', pages: 1 }],
        } as never),
      'GET /cms/rest/templates/article/usage': (r) => {
        expect(r.search).toBe('?regions=body');
        return json({
          pages: [
            { path: 'demo/welcome', kind: 'page', title: 'Welcome', href: '/cms/rest/pages/by-path/demo/welcome' },
          ],
          pageCount: 1,
          sections: [],
          trashed: [{ kind: 'page', title: 'Old news', trashId: '7', deletedFrom: 'demo/news' }],
          trashedCount: 1,
        });
      },
    });
    await screen.findByRole('textbox', { name: 'Name of region 3' });
    await user.click(screen.getByRole('button', { name: 'Remove region “body”' }));
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    const alert = await screen.findByText('Pages hold content there');
    const link = await within(alert.closest('[role="alert"]') as HTMLElement).findByRole('link', { name: 'Welcome' });
    expect(link.getAttribute('href')).toBe('/pages/demo/welcome');
    // What is in the trash is listed apart, with the way to the Trash.
    const inTrash = within(alert.closest('[role="alert"]') as HTMLElement).getByRole('list', { name: 'In the trash' });
    expect(inTrash.textContent).toBe('Old news deleted from demo/news');
    const trash = within(alert.closest('[role="alert"]') as HTMLElement).getByRole('link', { name: 'Trash' });
    expect(trash.getAttribute('href')).toBe('/trash');
  });
});
