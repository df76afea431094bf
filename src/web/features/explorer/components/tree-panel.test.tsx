import { act, screen, waitFor, within } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Role } from '../../../../shared/api/auth';
import { json, type Handlers } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { type ExplorerItem } from '../../../lib/tree/items';
import { DEMO, folderJson, treeHandlers, type FakeFolder } from '../test/fake-tree';
import { ExplorerDialogHost } from './explorer-dialogs';
import { ExplorerProvider, type ExplorerNavigation } from './explorer-context';
import { ExplorerTreePanel } from './tree-panel';

/** The explorer around the tree, with a navigation that records what was opened and follows it. */
function Harness({
  role,
  onOpen,
  onPreload,
  children,
}: {
  role: Role;
  onOpen: (item: ExplorerItem) => void;
  onPreload: (item: Pick<ExplorerItem, 'kind' | 'segments'>) => void;
  children: ReactNode;
}) {
  const [currentPath, setCurrentPath] = useState<string | null>(null);
  const navigation: ExplorerNavigation = {
    hrefOf: (item) => `/x/${item.segments.join('/')}`,
    open: (item) => {
      onOpen(item);
      setCurrentPath(item.path);
    },
    currentPath,
    openHome: () => setCurrentPath(null),
    homeHref: '/home',
    preloadScreenOf: onPreload,
  };
  return (
    <ExplorerProvider role={role} navigation={navigation}>
      {children}
      <ExplorerDialogHost />
    </ExplorerProvider>
  );
}

function renderTree({ role = 'Admin', handlers = treeHandlers() }: { role?: Role; handlers?: Handlers } = {}) {
  const onOpen = vi.fn<(item: ExplorerItem) => void>();
  const onPreload = vi.fn<(item: Pick<ExplorerItem, 'kind' | 'segments'>) => void>();
  const view = renderWithProviders(
    <Harness role={role} onOpen={onOpen} onPreload={onPreload}>
      <ExplorerTreePanel />
    </Harness>,
    handlers,
  );
  return { ...view, onOpen, onPreload };
}

const tree = () => screen.getByRole('tree', { name: 'Sites and asset library' });
const item = (name: string) => within(tree()).getByRole('treeitem', { name });
const folderRequests = (requests: { method: string; path: string }[]) =>
  requests.filter((r) => r.method === 'GET' && r.path.startsWith('/cms/rest/folders/by-path/')).map((r) => r.path);

/** Focuses the tree the way a keyboard user does, landing on its first item. */
async function tabIntoTree(user: ReturnType<typeof renderTree>['user']) {
  await screen.findByRole('treeitem', { name: 'Home (demo), site' });
  // The filter box comes first, then the tree.
  await user.tab();
  await user.tab();
  expect(document.activeElement).toBe(item('Home (demo), site'));
}

beforeAll(() => {
  // jsdom has no IntersectionObserver; react-aria's placeholder of unloaded children creates one.
  globalThis.IntersectionObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
    takeRecords() {
      return [];
    }
  } as unknown as typeof IntersectionObserver;
});

afterEach(() => {
  // Undo the layout sizes some tests give jsdom for the virtualiser.
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  sessionStorage.clear();
});

describe('the explorer tree', () => {
  it('is a WAI-ARIA tree of the sites and the asset library, each item named with its kind', async () => {
    const { server } = renderTree();
    const demo = await screen.findByRole('treeitem', { name: 'Home (demo), site' });
    const assets = item('Assets, asset library');
    for (const root of [demo, assets]) {
      expect(root.getAttribute('aria-level')).toBe('1');
      expect(root.getAttribute('aria-expanded')).toBe('false');
      expect(root.getAttribute('aria-selected')).toBe('false');
    }
    expect(demo.getAttribute('aria-posinset')).toBe('1');
    expect(demo.getAttribute('aria-setsize')).toBe('2');
    // A tree, not a grid: no grid roles or grid-only attributes anywhere in it.
    expect(tree().querySelector('[role="row"], [role="gridcell"], [aria-rowindex], [aria-colindex]')).toBeNull();
    // Nothing below the roots is fetched until a root is opened.
    expect(folderRequests(server.requests)).toEqual([]);
  });

  it('moves with the arrow keys, opens and closes with Right and Left, and loads only what it opens', async () => {
    const { user, server } = renderTree();
    await tabIntoTree(user);

    await user.keyboard('{ArrowRight}');
    const demo = item('Home (demo), site');
    expect(demo.getAttribute('aria-expanded')).toBe('true');
    const about = await screen.findByRole('treeitem', { name: 'About us (about), section' });
    expect(about.getAttribute('aria-level')).toBe('2');
    // Navigation order for sections and links, then folders, then pages.
    const names = within(tree())
      .getAllByRole('treeitem')
      .map((el) => el.getAttribute('aria-label'));
    expect(names).toEqual([
      'Home (demo), site',
      'About us (about), section',
      'News (news), section',
      'folio-docs, external link',
      'articles, folder',
      'index, landing page',
      'Assets, asset library',
    ]);
    expect(folderRequests(server.requests)).toEqual(['/cms/rest/folders/by-path/demo']);
    expect(document.activeElement).toBe(demo);

    // Right on an open item moves to its first child; Down to the next item; Left to the parent.
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(about);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(item('News (news), section'));
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(demo);
    // Left on an open item closes it.
    await user.keyboard('{ArrowLeft}');
    expect(demo.getAttribute('aria-expanded')).toBe('false');
    expect(within(tree()).queryByRole('treeitem', { name: 'About us (about), section' })).toBeNull();
    // Opening again uses what was loaded.
    await user.keyboard('{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'About us (about), section' });
    expect(folderRequests(server.requests)).toEqual(['/cms/rest/folders/by-path/demo']);
  });

  it('goes to the first and last item with Home and End, and finds items by typing their name', async () => {
    const { user } = renderTree();
    await tabIntoTree(user);
    await user.keyboard('{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'About us (about), section' });

    await user.keyboard('{End}');
    expect(document.activeElement).toBe(item('Assets, asset library'));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(item('Home (demo), site'));
    await user.keyboard('ar');
    expect(document.activeElement).toBe(item('articles, folder'));
    // Type-ahead starts over after a pause.
    await act(() => new Promise((r) => setTimeout(r, 1100)));
    await user.keyboard('n');
    expect(document.activeElement).toBe(item('News (news), section'));
  });

  it('opens the focused item with Enter and marks it selected, keeping the focus in the tree', async () => {
    const { user, onOpen } = renderTree();
    await tabIntoTree(user);
    await user.keyboard('{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'About us (about), section' });
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ path: 'demo/news', kind: 'section' }));
    const news = item('News (news), section');
    await waitFor(() => expect(news.getAttribute('aria-selected')).toBe('true'));
    expect(document.activeElement).toBe(news);
  });

  it("starts loading an item's screen when the pointer comes over its row or the row takes the focus", async () => {
    const { user, onPreload, onOpen } = renderTree();
    await tabIntoTree(user);
    expect(onPreload).toHaveBeenLastCalledWith(expect.objectContaining({ path: 'demo', kind: 'site' }));
    await user.keyboard('{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'index, landing page' });
    await user.keyboard('{End}{ArrowUp}');
    expect(document.activeElement).toBe(item('index, landing page'));
    expect(onPreload).toHaveBeenLastCalledWith(expect.objectContaining({ path: 'demo/index', kind: 'page' }));
    await user.hover(item('articles, folder'));
    expect(onPreload).toHaveBeenLastCalledWith(expect.objectContaining({ path: 'demo/articles', kind: 'folder' }));
    // Pointing at an item opens nothing.
    expect(onOpen).not.toHaveBeenCalled();
  });

  it('renames inline with F2: Enter saves, Escape cancels', async () => {
    const handlers = treeHandlers();
    handlers['POST /cms/rest/folders/rename'] = () => {
      // From now on the service lists the folder under its new name.
      handlers['GET /cms/rest/folders/by-path/demo'] = () =>
        json(folderJson('demo', { ...DEMO.demo, subfolders: ['archive'] }), 200, { etag: '"etag-demo-2"' });
      return json({
        name: 'archive',
        path: 'demo/archive',
        kind: 'folder',
        href: '/cms/rest/folders/by-path/demo/archive',
      });
    };
    const { user, server } = renderTree({ handlers });
    await tabIntoTree(user);
    await user.keyboard('{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'articles, folder' });
    await user.keyboard('{End}{ArrowUp}{ArrowUp}');
    expect(document.activeElement).toBe(item('articles, folder'));

    await user.keyboard('{F2}');
    const field = screen.getByRole('textbox', { name: 'New name for articles, folder' });
    expect(document.activeElement).toBe(field);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(item('articles, folder')));

    await user.keyboard('{F2}');
    await user.clear(screen.getByRole('textbox', { name: 'New name for articles, folder' }));
    await user.keyboard('archive{Enter}');
    const rename = server.requests.find((r) => r.path === '/cms/rest/folders/rename');
    expect(rename?.body).toEqual({ path: 'demo/articles', newName: 'archive' });
    // The If-Match of the listing the folder was read from is not known (the folder was never opened): none sent.
    expect(rename?.headers.get('if-match')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(item('archive, folder')));
  });

  it('opens the context menu with Shift+F10 and the Menu key, with what the user may do', async () => {
    const { user } = renderTree();
    await tabIntoTree(user);
    await user.keyboard('{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'About us (about), section' });
    await user.keyboard('{ArrowDown}');

    await user.keyboard('{Shift>}{F10}{/Shift}');
    const menu = await screen.findByRole('menu', { name: 'Actions for About us (about), section' });
    const labels = within(menu)
      .getAllByRole('menuitem')
      .map((el) => el.textContent);
    expect(labels).toEqual([
      'OpenEnter',
      'New section…',
      'New section link…',
      'New external link…',
      'New folder…',
      'New page…',
      'Rename…F2',
      'Move to…',
      'Move upAlt+↑',
      'Move downAlt+↓',
      'Delete…Del',
    ]);
    // The first entry of a section's navigation cannot move up.
    expect(
      within(menu)
        .getByRole('menuitem', { name: /Move up/ })
        .getAttribute('aria-disabled'),
    ).toBe('true');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    // Focus returns to the row the menu was opened for.
    await waitFor(() => expect(document.activeElement).toBe(item('About us (about), section')));

    await user.keyboard('{ContextMenu}');
    expect(await screen.findByRole('menu', { name: 'Actions for About us (about), section' })).toBeTruthy();
  });

  it('reorders sections with Alt+Down: a PUT of the navigation order with If-Match, shown at once', async () => {
    const handlers = treeHandlers();
    let release: () => void = () => undefined;
    handlers['PUT /cms/rest/folders/by-path/demo'] = (req) =>
      new Promise((resolve) => {
        release = () => {
          const order = (req.body as { subsections: { name: string }[] }).subsections.map((s) => s.name);
          resolve(json(demoWithOrder(order), 200, { etag: '"etag-demo-2"' }));
        };
      });
    const { user, server } = renderTree({ handlers });
    await tabIntoTree(user);
    await user.keyboard('{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'About us (about), section' });
    await user.keyboard('{ArrowDown}{Alt>}{ArrowDown}{/Alt}');

    const put = server.requests.find((r) => r.method === 'PUT');
    expect(put?.body).toEqual({
      subsections: [
        { name: 'news', type: 'section', href: '/cms/rest/folders/by-path/demo/news' },
        { name: 'about', type: 'section', href: '/cms/rest/folders/by-path/demo/about' },
        { name: 'folio-docs', type: 'externallink', href: 'https://example.org/folio-docs' },
      ],
    });
    expect(put?.headers.get('if-match')).toBe('"etag-demo"');
    // Optimistic: the new order shows before the service answers.
    const order = () =>
      within(tree())
        .getAllByRole('treeitem', { name: /section$|external link$/ })
        .map((el) => el.getAttribute('aria-label'));
    await waitFor(() =>
      expect(order()).toEqual(['News (news), section', 'About us (about), section', 'folio-docs, external link']),
    );
    await act(async () => release());
    await waitFor(() =>
      expect(order()).toEqual(['News (news), section', 'About us (about), section', 'folio-docs, external link']),
    );

    // Undo puts the previous order back, with the ETag of the order as it is now.
    let stored = { order: ['news', 'about', 'folio-docs'], etag: '"etag-demo-2"' };
    handlers['GET /cms/rest/folders/by-path/demo'] = () =>
      json(demoWithOrder(stored.order), 200, { etag: stored.etag });
    handlers['PUT /cms/rest/folders/by-path/demo'] = (req) => {
      stored = {
        order: (req.body as { subsections: { name: string }[] }).subsections.map((e) => e.name),
        etag: '"etag-demo-3"',
      };
      return json(demoWithOrder(stored.order), 200, { etag: stored.etag });
    };
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Navigation order restored')).toBeTruthy();
    const undo = server.requests.filter((r) => r.method === 'PUT')[1]!;
    expect(undo.headers.get('if-match')).toBe('"etag-demo-2"');
    expect((undo.body as { subsections: { name: string }[] }).subsections.map((e) => e.name)).toEqual([
      'about',
      'news',
      'folio-docs',
    ]);
    await waitFor(() =>
      expect(order()).toEqual(['About us (about), section', 'News (news), section', 'folio-docs, external link']),
    );
  });

  it('puts a refused reorder back and says why', async () => {
    const handlers = treeHandlers();
    handlers['PUT /cms/rest/folders/by-path/demo'] = () =>
      new Response(
        JSON.stringify({
          type: 'about:blank',
          title: 'Precondition Failed',
          status: 412,
          detail: '"demo" was changed by someone else.',
          code: 'PRECONDITION_FAILED',
        }),
        { status: 412, headers: { 'content-type': 'application/problem+json' } },
      );
    const { user } = renderTree({ handlers });
    await tabIntoTree(user);
    await user.keyboard('{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'About us (about), section' });
    await user.keyboard('{ArrowDown}{Alt>}{ArrowDown}{/Alt}');
    expect(await screen.findByText('"demo" was changed by someone else.')).toBeTruthy();
    const sections = within(tree())
      .getAllByRole('treeitem', { name: /section$/ })
      .map((el) => el.getAttribute('aria-label'));
    expect(sections).toEqual(['About us (about), section', 'News (news), section']);
  });

  it('offers a Viewer nothing that changes anything', async () => {
    const { user } = renderTree({ role: 'Viewer' });
    await tabIntoTree(user);
    await user.keyboard('{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'About us (about), section' });
    expect(within(tree()).queryAllByRole('button', { name: /^Actions for/ })).toEqual([]);
    expect(tree().querySelector('[draggable="true"]')).toBeNull();
    await user.keyboard('{ArrowDown}{F2}');
    expect(screen.queryByRole('textbox', { name: /New name/ })).toBeNull();
    await user.keyboard('{Shift>}{F10}{/Shift}');
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((el) => el.textContent),
    ).toEqual(['OpenEnter']);
  });

  it('narrows the loaded items with the filter box', async () => {
    const { user } = renderTree();
    await tabIntoTree(user);
    await user.keyboard('{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'About us (about), section' });
    await user.click(screen.getByRole('searchbox', { name: 'Filter loaded items by title or name' }));
    await user.keyboard('new');
    await waitFor(() =>
      expect(
        within(tree())
          .getAllByRole('treeitem')
          .map((el) => el.getAttribute('aria-label')),
      ).toEqual(['Home (demo), site', 'News (news), section']),
    );
    expect(screen.getByText('1 loaded item matches')).toBeTruthy();
  });

  it('keeps only the visible rows of 10,000 children in the DOM', async () => {
    // A 300 × 600 px tree: about 20 rows fit.
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 300 });
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
    const big: Record<string, FakeFolder> = {
      ...DEMO,
      demo: { ...DEMO.demo, subfolders: ['articles', 'big'] },
      'demo/big': { pages: Array.from({ length: 10_000 }, (_, i) => `page-${String(i).padStart(5, '0')}`) },
    };
    const { user } = renderTree({ handlers: treeHandlers(big) });
    await tabIntoTree(user);
    await user.keyboard('{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'big, folder' });
    await user.keyboard('{End}{ArrowUp}{ArrowUp}');
    expect(document.activeElement).toBe(item('big, folder'));
    await user.keyboard('{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'page-00000, page' }, { timeout: 5000 });
    const rendered = within(tree()).getAllByRole('treeitem');
    expect(rendered.length).toBeLessThan(60);
    const first = item('page-00000, page');
    expect(first.getAttribute('aria-setsize')).toBe('10000');

    // Arrow keys walk into the long list.
    await user.keyboard('{ArrowDown}{ArrowDown}');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('page-00001, page'));

    // Scrolled to the middle: the rows there are rendered, and still only about a screenful of them.
    const scroller = tree();
    // A setter that keeps the position: react-aria may still scroll the focused row into view on a later frame.
    Object.defineProperty(scroller, 'scrollTop', { configurable: true, get: () => 5000 * 30, set: () => {} });
    await act(async () => {
      scroller.dispatchEvent(new Event('scroll'));
    });
    expect((await screen.findAllByRole('treeitem', { name: /^page-049\d\d, page$/ })).length).toBeGreaterThan(5);
    expect(within(tree()).getAllByRole('treeitem').length).toBeLessThan(60);
    expect(within(tree()).queryByRole('treeitem', { name: 'page-00020, page' })).toBeNull();
  }, 20_000);
});

/** The demo site's listing with its navigation entries in `order`. */
function demoWithOrder(order: string[]) {
  const entries = DEMO.demo!.subsections!;
  return folderJson('demo', {
    ...DEMO.demo,
    subsections: order.map((n) => entries.find((e) => e.name === n)!),
  });
}
