import { describe, expect, it } from 'vitest';
import { folderJson } from '../test/fake-tree';
import { describeContents, describeElsewhere } from './describe';
import { childrenOf, itemAt, moveRefusal, remapPath } from '../../../lib/tree/items';
import { actionsFor } from './item-actions';
import { nameFromTitle } from '../../../lib/names';
import { buildTree, type ListingState } from '../../../lib/tree/tree-nodes';

const site = itemAt('demo', 'site');
const about = itemAt('demo/about', 'section');
const team = itemAt('demo/about/team', 'section');
const articles = itemAt('demo/articles', 'folder');
const welcome = itemAt('demo/articles/welcome', 'page');
const images = itemAt('Assets/images', 'assetfolder');

describe('moving items', () => {
  it('refuses cycles, no-ops and kinds the target cannot hold, in words', () => {
    expect(moveRefusal(about, about)).toBe('“about” cannot be moved into itself.');
    expect(moveRefusal(about, team)).toBe('“about” cannot be moved into a folder inside it.');
    expect(moveRefusal(team, about)).toBe('“team” is already in “about”.');
    expect(moveRefusal(about, articles)).toBe(
      'A folder cannot hold a section: sections and links live in sites and sections.',
    );
    expect(moveRefusal(welcome, about)).toBeNull();
    expect(moveRefusal(articles, about)).toBeNull();
    expect(moveRefusal(team, site)).toBeNull();
    expect(moveRefusal(site, about)).toBe('A site cannot be moved.');
    expect(moveRefusal(itemAt('demo/index', 'page', true), articles)).toBe(
      'A landing page stays with its site or section.',
    );
    expect(moveRefusal(images, articles)).toBe('Asset folders stay in the asset library.');
    expect(moveRefusal(articles, itemAt('Assets', 'library'))).toBe('Only asset folders go into the asset library.');
    expect(moveRefusal(welcome, itemAt('demo/folio-docs', 'externallink'))).toBe(
      'Nothing can be put in an external link.',
    );
  });

  it('follows a moved item to its new path, and nothing else', () => {
    expect(remapPath('demo/about/team', 'demo/about', 'demo/news/about')).toBe('demo/news/about/team');
    expect(remapPath('demo/about', 'demo/about', 'demo/x')).toBe('demo/x');
    expect(remapPath('demo/aboutness', 'demo/about', 'demo/x')).toBe('demo/aboutness');
  });
});

describe('children of a container', () => {
  it('lists navigation entries in navigation order, then folders, then pages, marking the landing page', () => {
    const folder = folderJson('demo', {
      sectionInfo: {
        displayTitle: 'Home',
        targetWindow: '_self',
        navClass: '',
        landingPage: { name: 'index', href: '' },
      },
      subsections: [
        { name: 'news', type: 'section' },
        { name: 'docs', type: 'externallink' },
        { name: 'about', type: 'sectionlink' },
      ],
      subfolders: ['articles'],
      pages: ['contact', 'index'],
    });
    expect(childrenOf(site, folder).map((c) => [c.name, c.kind, c.isLandingPage ?? false])).toEqual([
      ['news', 'section', false],
      ['docs', 'externallink', false],
      ['about', 'sectionlink', false],
      ['articles', 'folder', false],
      ['contact', 'page', false],
      ['index', 'page', true],
    ]);
    expect(
      childrenOf(itemAt('Assets', 'library'), folderJson('Assets', { subfolders: ['images'], assets: ['a'] })),
    ).toEqual([itemAt('Assets/images', 'assetfolder')]);
  });
});

describe('building the tree', () => {
  const listings: Record<string, ListingState> = {
    demo: { status: 'loaded', folder: folderJson('demo', { subfolders: ['articles', 'empty'], pages: ['welcome'] }) },
    'demo/articles': { status: 'loaded', folder: folderJson('demo/articles', { pages: ['first', 'second'] }) },
    'demo/empty': { status: 'loaded', folder: folderJson('demo/empty', {}) },
  };
  const listingOf = (path: string): ListingState => listings[path] ?? { status: 'unknown' };

  it('shows children only of expanded containers, and an empty container as a leaf', () => {
    const built = buildTree({ roots: [site], expanded: new Set(['demo']), listingOf });
    const demo = built.nodes[0]!;
    expect(demo.children.map((c) => [c.id, c.hasChildren])).toEqual([
      ['demo/articles', true],
      ['demo/empty', false],
      ['demo/welcome', false],
    ]);
    expect(demo.children[0]!.children).toEqual([]);
  });

  it('keeps unchanged rows identical between builds', () => {
    const first = buildTree({ roots: [site], expanded: new Set(['demo']), listingOf });
    const second = buildTree({ roots: [site], expanded: new Set(['demo']), listingOf, previous: first.byPath });
    expect(second.nodes[0]).toBe(first.nodes[0]);
    const third = buildTree({
      roots: [site],
      expanded: new Set(['demo', 'demo/articles']),
      listingOf,
      previous: second.byPath,
    });
    expect(third.nodes[0]).not.toBe(first.nodes[0]);
    expect(third.byPath.get('demo/welcome')).toBe(first.byPath.get('demo/welcome'));
  });

  it('filters every loaded listing by name, opening the containers on the way to a match', () => {
    const built = buildTree({ roots: [site], expanded: new Set(), listingOf, filter: 'SEC' });
    expect([...built.byPath.keys()]).toEqual(['demo/articles/second', 'demo/articles', 'demo']);
    expect(built.expanded).toEqual(new Set(['demo', 'demo/articles']));
    expect(built.matches).toBe(1);
  });
});

describe('actions offered', () => {
  it('offers changes only to who may change, and never moves landing pages or sites', () => {
    const ids = (item = about, canChange = true, nav?: { index: number; count: number }) =>
      actionsFor(item, { canChange, canChangeParent: canChange, canManageSites: true, navigation: nav }).map(
        (a) => a.id,
      );
    expect(ids(about, false)).toEqual(['open']);
    expect(ids(site)).toEqual([
      'open',
      'new-section',
      'new-sectionlink',
      'new-externallink',
      'new-folder',
      'new-page',
      'rename',
      'delete',
    ]);
    expect(ids(itemAt('demo/index', 'page', true))).toEqual(['open']);
    expect(ids(articles)).toEqual(['open', 'new-folder', 'new-page', 'rename', 'move', 'delete']);
    expect(ids(about, true, { index: 0, count: 2 })).toContain('move-down');
    expect(ids(itemAt('Assets', 'library'))).toEqual(['open', 'new-assetfolder']);
    // An editor works inside a site, but renaming or deleting the site itself is for admins.
    const asEditor = (item: typeof site) =>
      actionsFor(item, { canChange: true, canChangeParent: true, canManageSites: false }).map((a) => a.id);
    expect(asEditor(site)).not.toContain('rename');
    expect(asEditor(site)).not.toContain('delete');
    expect(asEditor(site)).toContain('new-section');
    expect(asEditor(articles)).toEqual(['open', 'new-folder', 'new-page', 'rename', 'move', 'delete']);
  });
});

describe('words', () => {
  it('names what a delete removes', () => {
    const none = {
      folders: 0,
      sections: 0,
      sectionLinks: 0,
      externalLinks: 0,
      pages: 0,
      assets: 0,
      sectionLinksElsewhere: 0,
      widgetsElsewhere: 0,
      empty: true,
    };
    expect(describeContents({ ...none, folders: 3, pages: 12 })).toBe('3 folders, 12 pages');
    expect(describeContents({ ...none, sections: 1, sectionLinks: 2, assets: 1 })).toBe(
      '1 section, 2 section links, 1 asset',
    );
    expect(describeContents(none)).toBe('nothing');
    expect(describeElsewhere({ ...none, sectionLinksElsewhere: 1, widgetsElsewhere: 2 })).toBe(
      '1 section link elsewhere that leads here and 2 widgets on other pages that show assets from here',
    );
    expect(describeElsewhere(none)).toBeNull();
  });

  it('suggests a name for the address from a title', () => {
    expect(nameFromTitle('Press & Media Kit')).toBe('press-media-kit');
    expect(nameFromTitle('  Über uns ')).toBe('uber-uns');
    expect(nameFromTitle('2026: Plans!')).toBe('2026-plans');
  });
});
