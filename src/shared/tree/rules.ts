/**
 * What may live where in the tree of sites and the asset library: one copy of the rule, applied by the service
 * (which stays the judge) and by the admin app (which refuses impossible moves before sending anything).
 */

/** Kinds of items in the tree. */
export type TreeKind = 'library' | 'site' | 'folder' | 'section' | 'sectionlink' | 'externallink' | 'page' | 'asset';

/** Which part of the tree an item belongs to: a site, or the asset library (`Assets/…`). */
export type Realm = 'site' | 'assets';

/** Kinds that hold other items. */
export function isContainerKind(kind: string): boolean {
  return kind === 'site' || kind === 'section' || kind === 'folder' || kind === 'library';
}

/** Kinds listed in a site's or section's `subsections`, whose order is the navigation order. */
export function isNavigationKind(kind: string): boolean {
  return kind === 'section' || kind === 'sectionlink' || kind === 'externallink';
}

/**
 * Whether a container of kind `parent` in `realm` may hold an item of kind `child`. Sites and sections hold
 * sections, links, folders and pages; plain folders hold folders and pages (so sections stay in the navigation
 * tree of sections); the asset library and its folders hold folders and assets.
 */
export function canContain(parent: string, realm: Realm, child: string): boolean {
  if (realm === 'assets') {
    return (parent === 'library' || parent === 'folder') && (child === 'folder' || child === 'asset');
  }
  if (parent === 'site' || parent === 'section') {
    return (
      child === 'folder' ||
      child === 'section' ||
      child === 'sectionlink' ||
      child === 'externallink' ||
      child === 'page'
    );
  }
  if (parent === 'folder') return child === 'folder' || child === 'page';
  return false;
}
