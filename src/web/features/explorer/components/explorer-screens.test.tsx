import { screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '../../../../shared/api/auth';
import { json, problem, type Handlers } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { itemAt, type ExplorerItem } from '../../../lib/tree/items';
import { DEMO, folderJson, treeHandlers } from '../test/fake-tree';
import { ExplorerDialogHost, ExplorerDialogs } from './explorer-dialogs';
import { ExplorerProvider, type ExplorerCommand } from './explorer-context';
import { FolderScreen } from './folder-screen';

function Explorer({ role, children }: { role: Role; children: ReactNode }) {
  return (
    <ExplorerProvider
      role={role}
      navigation={{
        hrefOf: (i) => `/x/${i.segments.join('/')}`,
        open: vi.fn(),
        currentPath: null,
        openHome: vi.fn(),
        homeHref: '/home',
        preloadScreenOf: vi.fn(),
      }}
    >
      {children}
      <ExplorerDialogHost />
    </ExplorerProvider>
  );
}

function renderScreen(
  path: string,
  { role = 'Admin', handlers = treeHandlers() }: { role?: Role; handlers?: Handlers } = {},
) {
  // The fake server reads `handlers` on every request, so a test may change answers on the way.
  handlers['GET /cms/rest/templates'] = () =>
    json([
      { name: 'article', label: 'Article', description: 'Text', regions: [] },
      { name: 'landing', label: 'Landing page', description: 'Banner', regions: [] },
    ]);
  return renderWithProviders(
    <Explorer role={role}>
      <FolderScreen path={path} />
    </Explorer>,
    handlers,
  );
}

function renderDialog(command: ExplorerCommand, handlers: Handlers) {
  const onClose = vi.fn();
  const view = renderWithProviders(
    <Explorer role="Admin">
      <ExplorerDialogs command={command} onClose={onClose} />
    </Explorer>,
    {
      'GET /cms/rest/templates': () => json([{ name: 'article', label: 'Article', description: 'Text', regions: [] }]),
      ...treeHandlers(),
      ...handlers,
    },
  );
  return { ...view, onClose };
}

afterEach(() => sessionStorage.clear());

describe('the properties of a section', () => {
  it('saves only what changed, with If-Match', async () => {
    const handlers = treeHandlers();
    handlers['PUT /cms/rest/folders/by-path/demo/news'] = () =>
      json(
        folderJson('demo/news', {
          ...DEMO['demo/news'],
          sectionInfo: { ...DEMO['demo/news']!.sectionInfo!, displayTitle: 'Latest news' },
        }),
        200,
        {
          etag: '"etag-news-2"',
        },
      );
    const { user, server } = renderScreen('demo/news', { handlers });
    const title = await screen.findByRole('textbox', { name: 'Display title' });
    await user.clear(title);
    await user.type(title, 'Latest news');
    await user.click(screen.getByRole('button', { name: 'Save properties' }));
    await screen.findByText('Saved the properties of “news”');
    const put = server.requests.find((r) => r.method === 'PUT')!;
    expect(put.body).toEqual({ sectionInfo: { displayTitle: 'Latest news' } });
    expect(put.headers.get('if-match')).toBe('"etag-demo/news"');
  });

  it('says when someone else changed it, and overwrites with a fresh If-Match, keeping their other changes', async () => {
    const handlers = treeHandlers();
    let puts = 0;
    handlers['PUT /cms/rest/folders/by-path/demo/news'] = (req) => {
      puts++;
      if (req.headers.get('if-match') === '"etag-demo/news"') {
        return problem(412, 'PRECONDITION_FAILED', '"demo/news" was changed since it was read.');
      }
      return json(
        folderJson('demo/news', {
          ...DEMO['demo/news'],
          sectionInfo: { ...DEMO['demo/news']!.sectionInfo!, navClass: 'hot', displayTitle: 'Theirs' },
        }),
        200,
        {
          etag: '"etag-news-3"',
        },
      );
    };
    const { user, server } = renderScreen('demo/news', { handlers });
    const navClass = await screen.findByRole('textbox', { name: 'Navigation class' });
    await user.type(navClass, 'hot');
    await user.click(screen.getByRole('button', { name: 'Save properties' }));
    const conflict = await screen.findByRole('alert');
    expect(conflict.textContent).toContain('Changed by someone else');
    expect(conflict.textContent).toContain('was changed by someone else after you opened it');

    // Someone else's version, as the service now has it.
    handlers['GET /cms/rest/folders/by-path/demo/news'] = () =>
      json(
        folderJson('demo/news', {
          ...DEMO['demo/news'],
          sectionInfo: { ...DEMO['demo/news']!.sectionInfo!, displayTitle: 'Theirs' },
        }),
        200,
        {
          etag: '"etag-news-2"',
        },
      );
    await user.click(within(conflict).getByRole('button', { name: 'Overwrite' }));
    await screen.findByText('Saved the properties of “news”');
    const last = server.requests.filter((r) => r.method === 'PUT').at(-1)!;
    expect(puts).toBe(2);
    expect(last.headers.get('if-match')).toBe('"etag-news-2"');
    // Only my change goes over theirs: their new title stays.
    expect(last.body).toEqual({ sectionInfo: { navClass: 'hot' } });
    expect((screen.getByRole('textbox', { name: 'Display title' }) as HTMLInputElement).value).toBe('Theirs');
  });

  it('reloads the other version when the user chooses so, dropping their own edits', async () => {
    const handlers = treeHandlers();
    handlers['PUT /cms/rest/folders/by-path/demo/news'] = () =>
      problem(412, 'PRECONDITION_FAILED', '"demo/news" was changed since it was read.');
    const { user } = renderScreen('demo/news', { handlers });
    const title = await screen.findByRole('textbox', { name: 'Display title' });
    await user.clear(title);
    await user.type(title, 'Mine');
    await user.click(screen.getByRole('button', { name: 'Save properties' }));
    const conflict = await screen.findByRole('alert');
    handlers['GET /cms/rest/folders/by-path/demo/news'] = () =>
      json(
        folderJson('demo/news', {
          ...DEMO['demo/news'],
          sectionInfo: { ...DEMO['demo/news']!.sectionInfo!, displayTitle: 'Theirs' },
        }),
        200,
        {
          etag: '"etag-news-2"',
        },
      );
    await user.click(within(conflict).getByRole('button', { name: 'Reload' }));
    await waitFor(() =>
      expect((screen.getByRole('textbox', { name: 'Display title' }) as HTMLInputElement).value).toBe('Theirs'),
    );
    expect(screen.queryByText('Changed by someone else')).toBeNull();
  });

  it('shows a Viewer the properties read only, and no actions', async () => {
    renderScreen('demo/news', { role: 'Viewer' });
    await screen.findByRole('heading', { level: 1, name: 'News' });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('toolbar')).toBeNull();
    expect(screen.queryByRole('button', { name: /Save|Rename|Delete|Move/ })).toBeNull();
    expect(screen.getByText('Display title').nextElementSibling?.textContent).toBe('News');
  });
});

describe('the explorer dialogs', () => {
  const noneInside = {
    folders: 0,
    sections: 0,
    sectionLinks: 0,
    externalLinks: 0,
    pages: 0,
    assets: 0,
    sectionLinksElsewhere: 0,
    widgetsElsewhere: 0,
  };

  it('deletes a non-empty folder only after an explicit tick, naming what goes', async () => {
    const item = itemAt('demo/articles', 'folder');
    const { user, server, onClose } = renderDialog(
      { type: 'delete', item },
      {
        'GET /cms/rest/folders/contents/by-path/demo/articles': () =>
          json({ ...noneInside, folders: 3, pages: 12, sectionLinksElsewhere: 1, empty: false }),
        'DELETE /cms/rest/folders/by-path/demo/articles': () => json({ message: 'Deleted' }),
      },
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete folder “articles”?' });
    await within(dialog).findByText('3 folders, 12 pages');
    expect(dialog.textContent).toContain('Also removed: 1 section link elsewhere that leads here.');
    const remove = within(dialog).getByRole('button', { name: 'Delete folder' });
    expect(remove.hasAttribute('disabled')).toBe(true);
    // Focus starts on Cancel, so Enter never deletes by accident.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Delete “articles” and everything inside it' }));
    await user.click(remove);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const del = server.requests.find((r) => r.method === 'DELETE')!;
    expect(del.search).toBe('?includeSubFolders=true');
    expect(del.headers.get('if-match')).toBe('"etag-demo/articles"');
  });

  it('deletes an empty section without includeSubFolders and says the landing page goes with it', async () => {
    const item = itemAt('demo/news', 'section');
    const { user, server } = renderDialog(
      { type: 'delete', item },
      {
        'GET /cms/rest/folders/contents/by-path/demo/news': () => json({ ...noneInside, pages: 1, empty: true }),
        'DELETE /cms/rest/folders/by-path/demo/news': () => json({ message: 'Deleted' }),
      },
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete section “news”?' });
    await within(dialog).findByText(/holds nothing but its landing page, which goes with it/);
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Delete section' }));
    await waitFor(() => expect(server.requests.some((r) => r.method === 'DELETE')).toBe(true));
    expect(server.requests.find((r) => r.method === 'DELETE')!.search).toBe('');
  });

  it('refuses an external link address that is not absolute http(s) before sending anything', async () => {
    const parent = itemAt('demo', 'site');
    const handlers: Handlers = {
      'PUT /cms/rest/folders/by-path/demo/docs': () =>
        json(
          folderJson('demo/docs', {
            sectionInfo: {
              type: 'externallink',
              displayTitle: 'Docs',
              targetWindow: '_blank',
              navClass: '',
              externalLinkUrl: 'https://example.org/',
            },
          }),
          201,
        ),
    };
    const { user, server } = renderDialog({ type: 'create', kind: 'externallink', parent }, handlers);
    const dialog = await screen.findByRole('dialog', { name: 'New external link in “demo”' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Display title' }), 'Docs');
    expect((within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('docs');
    const url = within(dialog).getByRole('textbox', { name: 'URL' });
    await user.clear(url);
    await user.type(url, 'javascript:alert(1)');
    await user.click(within(dialog).getByRole('button', { name: 'Create external link' }));
    await within(dialog).findByText('The URL must be an absolute http:// or https:// URL.');
    expect(server.requests.some((r) => r.method === 'PUT')).toBe(false);

    await user.clear(url);
    await user.type(url, 'https://example.org/');
    await user.click(within(dialog).getByRole('button', { name: 'Create external link' }));
    await waitFor(() => expect(server.requests.some((r) => r.method === 'PUT')).toBe(true));
    const put = server.requests.find((r) => r.method === 'PUT')!;
    expect(put.headers.get('if-none-match')).toBe('*');
    expect(put.body).toEqual({
      sectionInfo: {
        type: 'externallink',
        displayTitle: 'Docs',
        targetWindow: '_blank',
        externalLinkUrl: 'https://example.org/',
      },
    });
  });

  it('refuses a page name that is taken instead of overwriting that page', async () => {
    const parent = itemAt('demo/articles', 'folder');
    const { user, server } = renderDialog({ type: 'create', kind: 'page', parent }, {});
    const dialog = await screen.findByRole('dialog', { name: 'New page in “articles”' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Display name' }), 'Welcome');
    await within(dialog).findByRole('button', { name: /Article/ });
    await user.click(within(dialog).getByRole('button', { name: 'Create page' }));
    await within(dialog).findByText('The name is already used by another item here.');
    expect(server.requests.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('moves only where the item can go, saying why not before anything is sent', async () => {
    const item: ExplorerItem = itemAt('demo/about', 'section');
    const handlers: Handlers = {
      'POST /cms/rest/folders/move': () =>
        json({
          name: 'about',
          path: 'demo/news/about',
          kind: 'section',
          href: '/cms/rest/folders/by-path/demo/news/about',
        }),
    };
    const { user, server, onClose } = renderDialog({ type: 'move', item }, handlers);
    const dialog = await screen.findByRole('dialog', { name: 'Move section “about”' });
    const picker = within(dialog).getByRole('tree', { name: 'Move to' });
    // The focus starts in the tree, on the row of the container the item is in now.
    await waitFor(() =>
      expect(document.activeElement).toBe(within(picker).getByRole('treeitem', { name: 'Home (demo), site' })),
    );
    await user.click(await within(picker).findByRole('treeitem', { name: 'articles, folder' }));
    await within(dialog).findByText('A folder cannot hold a section: sections and links live in sites and sections.');
    expect(within(dialog).getByRole('button', { name: 'Move here' }).hasAttribute('disabled')).toBe(true);
    await user.click(within(picker).getByRole('treeitem', { name: 'News (news), section' }));
    await within(dialog).findByText('“about” goes into “demo/news”.');
    await user.click(within(dialog).getByRole('button', { name: 'Move here' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(server.requests.find((r) => r.method === 'POST')!.body).toEqual({
      itemPath: 'demo/about',
      targetFolderPath: 'demo/news',
    });
  });

  it('offers Undo after a move, which moves the item back to its place in the navigation', async () => {
    const item: ExplorerItem = { ...itemAt('demo/news', 'section'), title: 'News' };
    let movedBack = false;
    const handlers: Handlers = {
      'POST /cms/rest/folders/move': (r) => {
        const back = (r.body as { targetFolderPath: string }).targetFolderPath === 'demo';
        movedBack ||= back;
        const path = back ? 'demo/news' : 'demo/about/news';
        return json({ name: 'news', path, kind: 'section', href: `/cms/rest/folders/by-path/${path}` });
      },
      // Moved back, "news" comes last: the order is put back as it was.
      'GET /cms/rest/folders/by-path/demo': () =>
        movedBack
          ? json(
              folderJson('demo', {
                ...DEMO.demo,
                subsections: [
                  { name: 'about', type: 'section' },
                  { name: 'folio-docs', type: 'externallink' },
                  { name: 'news', type: 'section' },
                ],
              }),
              200,
              { etag: '"after"' },
            )
          : json(folderJson('demo', DEMO.demo), 200, { etag: '"before"' }),
      'PUT /cms/rest/folders/by-path/demo': () => json(folderJson('demo', DEMO.demo), 200, { etag: '"restored"' }),
    };
    const { user, server } = renderDialog({ type: 'move', item }, handlers);
    const dialog = await screen.findByRole('dialog', { name: 'Move section “News”' });
    expect(within(dialog).getByText(/Everything inside it moves with it/)).toBeTruthy();
    const picker = within(dialog).getByRole('tree', { name: 'Move to' });
    await user.click(await within(picker).findByRole('treeitem', { name: 'About us (about), section' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move here' }));
    const notifications = await screen.findByRole('region', { name: 'Notifications' });
    await within(notifications).findByText('Moved “News” into “About us”');
    await user.click(within(notifications).getByRole('button', { name: 'Undo' }));
    // (The region is made again once the first toast is gone.)
    await screen.findByText('Moved “News” back to “demo”');
    const posts = server.requests.filter((r) => r.method === 'POST').map((r) => r.body);
    expect(posts).toEqual([
      { itemPath: 'demo/news', targetFolderPath: 'demo/about' },
      { itemPath: 'demo/about/news', targetFolderPath: 'demo' },
    ]);
    const put = server.requests.find((r) => r.method === 'PUT')!;
    expect(put.headers.get('if-match')).toBe('"after"');
    expect((put.body as { subsections: { name: string }[] }).subsections.map((e) => e.name)).toEqual([
      'about',
      'news',
      'folio-docs',
    ]);
  });

  it('says what cannot be undone: a page’s move dialog says nothing of insides, and a deleted page stays deleted', async () => {
    const page: ExplorerItem = { ...itemAt('demo/articles/welcome', 'page'), title: 'Welcome' };
    renderDialog({ type: 'move', item: page }, {});
    const dialog = await screen.findByRole('dialog', { name: 'Move page “Welcome”' });
    expect(within(dialog).getByText('Choose where the page goes.')).toBeTruthy();
  });
});

describe('the contents table', () => {
  it('shows titles with names, kinds, workflow states, and who changed what when; sorts by a column', async () => {
    const handlers = treeHandlers();
    handlers['GET /cms/rest/folders/children/by-path/demo/articles'] = () =>
      json({
        accessLevel: 'ADMIN',
        items: [
          {
            name: 'getting-started',
            kind: 'page',
            title: 'Getting started',
            workflowState: 'Public',
            lastModified: '2026-03-01T10:00:00.000+0000',
            lastModifiedBy: 'erin',
          },
          {
            name: 'press-kit',
            kind: 'page',
            title: 'Press kit',
            workflowState: 'Draft',
            lastModified: '2026-01-01T10:00:00.000+0000',
            lastModifiedBy: 'admin',
          },
          {
            name: 'welcome',
            kind: 'page',
            title: 'Welcome to Folio',
            workflowState: 'Review',
            lastModified: '2026-02-01T10:00:00.000+0000',
            lastModifiedBy: 'admin',
          },
        ],
      });
    const { user } = renderScreen('demo/articles', { handlers });
    const table = await screen.findByRole('table', { name: /Contents of articles/ });
    const titles = () =>
      within(table)
        .getAllByRole('rowheader')
        .map((c) => within(c).getByRole('link').textContent);
    await waitFor(() => expect(titles()).toEqual(['Getting started', 'Press kit', 'Welcome to Folio']));
    const row = within(table).getByRole('row', { name: /Welcome to Folio/ });
    expect(row.textContent).toContain('welcome');
    expect(row.textContent).toContain('Page');
    expect(within(row).getByText('Review').className).toContain('workflow-badge');
    expect(row.textContent).toContain('by admin');

    await user.click(within(table).getByRole('button', { name: 'Last modified' }));
    expect(titles()).toEqual(['Press kit', 'Welcome to Folio', 'Getting started']);
    expect(within(table).getByRole('columnheader', { name: 'Last modified' }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
    await user.click(within(table).getByRole('button', { name: 'Last modified' }));
    expect(titles()).toEqual(['Getting started', 'Welcome to Folio', 'Press kit']);
    await user.click(within(table).getByRole('button', { name: 'State' }));
    expect(titles()).toEqual(['Press kit', 'Welcome to Folio', 'Getting started']);
    await user.click(within(table).getByRole('button', { name: 'By name' }));
    expect(titles()).toEqual(['Getting started', 'Press kit', 'Welcome to Folio']);
  });

  it('offers what an empty container lacks', async () => {
    const handlers = treeHandlers({ ...DEMO, 'demo/empty': {} });
    const { user } = renderScreen('demo/empty', { handlers });
    expect(await screen.findByText('Nothing here yet')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'New page' }));
    expect(await screen.findByRole('dialog', { name: 'New page in “empty”' })).toBeTruthy();
  });
});
