import type { FolderContents } from '../../../../shared/api/folders';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What is inside, in words: "3 folders, 12 pages" ("nothing" when empty). */
export function describeContents(c: FolderContents): string {
  const parts = [
    c.sections && plural(c.sections, 'section'),
    c.sectionLinks && plural(c.sectionLinks, 'section link'),
    c.externalLinks && plural(c.externalLinks, 'external link'),
    c.folders && plural(c.folders, 'folder'),
    c.pages && plural(c.pages, 'page'),
    c.assets && plural(c.assets, 'asset'),
  ].filter((p): p is string => typeof p === 'string');
  return parts.length ? parts.join(', ') : 'nothing';
}

/** What goes elsewhere with a delete, in words; null when nothing does. */
export function describeElsewhere(c: FolderContents): string | null {
  const parts = [
    c.sectionLinksElsewhere &&
      `${plural(c.sectionLinksElsewhere, 'section link')} elsewhere that ${c.sectionLinksElsewhere === 1 ? 'leads' : 'lead'} here`,
    c.widgetsElsewhere &&
      `${plural(c.widgetsElsewhere, 'widget')} on other pages that ${c.widgetsElsewhere === 1 ? 'shows' : 'show'} assets from here`,
  ].filter((p): p is string => typeof p === 'string');
  return parts.length ? parts.join(' and ') : null;
}

export { plural };
