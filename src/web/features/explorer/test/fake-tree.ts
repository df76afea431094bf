import type { ChildSummary, Folder, FolderChildren, SubsectionType } from '../../../../shared/api/folders';
import { folderHref, pageHref } from '../../../../shared/api/paths';
import { json, type Handlers } from '../../../test/fake-api';

/** Test data for the explorer: folder listings as the service answers them, and handlers serving them. */

export interface FakeFolder {
  sectionInfo?: Folder['sectionInfo'];
  subsections?: { name: string; type: SubsectionType }[];
  subfolders?: string[];
  pages?: string[];
  assets?: string[];
  accessLevel?: Folder['accessLevel'];
}

/** The Folder JSON of `path` holding what `f` lists. */
export function folderJson(path: string, f: FakeFolder = {}): Folder {
  const segments = path.split('/');
  const at = (name: string) => [...segments, name];
  const out: Folder = {
    id: `1-1-${path.length}`,
    name: segments.length === 1 ? '' : segments[segments.length - 1]!,
    siteName: segments[0]!,
    path: segments.slice(1, -1).join('/'),
    workflow: '[default]',
    accessLevel: f.accessLevel ?? 'ADMIN',
  };
  if (f.sectionInfo) out.sectionInfo = f.sectionInfo;
  if (segments[0] === 'Assets') {
    out.subfolders = (f.subfolders ?? []).map((n) => ({ name: n, href: folderHref(at(n)) }));
    out.assets = (f.assets ?? []).map((n) => ({ name: n, href: `/cms/rest/assets/by-path/${at(n).join('/')}` }));
    return out;
  }
  out.pages = (f.pages ?? []).map((n) => ({ name: n, href: pageHref(at(n)) }));
  out.subfolders = (f.subfolders ?? []).map((n) => ({ name: n, href: folderHref(at(n)) }));
  if (f.sectionInfo && !f.sectionInfo.type) {
    out.subsections = (f.subsections ?? []).map((s) => ({
      name: s.name,
      // Sections list their own address, external links their URL (section links their target's address).
      href: s.type === 'externallink' ? `https://example.org/${at(s.name).slice(1).join('/')}` : folderHref(at(s.name)),
      type: s.type,
    }));
  }
  return out;
}

const section = (displayTitle: string, templateName = 'article'): Folder['sectionInfo'] => ({
  displayTitle,
  targetWindow: '_self',
  navClass: '',
  templateName,
  landingPage: { name: 'index', href: '' },
});

/** The demo site's shape: sections about (→ team), news; external link folio-docs; folder articles; pages. */
export const DEMO: Record<string, FakeFolder> = {
  demo: {
    sectionInfo: section('Home', 'home'),
    subsections: [
      { name: 'about', type: 'section' },
      { name: 'news', type: 'section' },
      { name: 'folio-docs', type: 'externallink' },
    ],
    subfolders: ['articles'],
    pages: ['index'],
  },
  'demo/about': {
    sectionInfo: section('About us'),
    subsections: [{ name: 'team', type: 'section' }],
    pages: ['index'],
  },
  'demo/about/team': { sectionInfo: section('Our team'), pages: ['index'] },
  'demo/news': { sectionInfo: section('News', 'two-column'), pages: ['index'] },
  'demo/articles': { pages: ['getting-started', 'press-kit', 'welcome'] },
  Assets: { subfolders: ['images', 'snippets'] },
  'Assets/images': { assets: ['hero.jpg', 'logo.png'] },
  'Assets/snippets': { assets: ['contact'] },
};

/** Handlers serving `/cms/rest/sites` and the GET of every folder in `tree` (with an ETag). */
export function treeHandlers(tree: Record<string, FakeFolder> = DEMO): Handlers {
  const handlers: Handlers = {
    'GET /cms/rest/sites': () =>
      json(
        Object.keys(tree)
          .filter((p) => !p.includes('/') && p !== 'Assets')
          .map((name) => ({
            id: `1-1-${name.length}`,
            name,
            displayTitle: tree[name]!.sectionInfo?.displayTitle ?? 'Home',
            href: folderHref([name]),
          })),
      ),
  };
  for (const [path, f] of Object.entries(tree)) {
    handlers[`GET ${folderHref(path.split('/'))}`] = () => json(folderJson(path, f), 200, { etag: `"etag-${path}"` });
    handlers[`GET ${childrenHref(path)}`] = () => json(childrenJson(tree, path));
  }
  return handlers;
}

/** `/cms/rest/folders/children/by-path/<path>`. */
export const childrenHref = (path: string) =>
  folderHref(path.split('/')).replace('/folders/by-path/', '/folders/children/by-path/');

/**
 * The children summaries of `path` as the service answers them: sections and links titled as their own
 * `sectionInfo` says (when the tree has them), pages titled with their names (a new page's display name), all
 * changed by admin at one time.
 */
export function childrenJson(tree: Record<string, FakeFolder>, path: string): FolderChildren {
  const f = tree[path] ?? {};
  const lastModified = '2026-01-02T03:04:05.678+0000';
  const entry = (name: string, kind: ChildSummary['kind'], title?: string): ChildSummary => ({
    name,
    kind,
    ...(title ? { title } : {}),
    ...(kind === 'page' ? { workflowState: 'Draft' } : {}),
    lastModified,
    lastModifiedBy: 'admin',
  });
  return {
    accessLevel: f.accessLevel ?? 'ADMIN',
    items: [
      ...(f.subsections ?? []).map((e) => entry(e.name, e.type, tree[`${path}/${e.name}`]?.sectionInfo?.displayTitle)),
      ...(f.subfolders ?? []).map((n) => entry(n, 'folder')),
      ...(f.pages ?? []).map((n) => entry(n, 'page', n)),
      ...(f.assets ?? []).map((n) => entry(n, 'asset')),
    ],
  };
}
