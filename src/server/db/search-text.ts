/**
 * The words of stored content for the full-text index (migration 0270): every string of a JSON value (a page's SEO
 * fields, a widget's or an asset's fields), rich text as its text (tags dropped, common entities decoded), one field
 * from the next apart by FIELD_SEPARATOR. The search indexer makes every search row's text with it
 * (modules/search/search.index-rows.ts), on both databases; SQLite also has it as the application function
 * `folio_search_text(json)` on every connection that writes (db/database.ts), for migration 0270's first fill.
 */
export const SEARCH_TEXT_FUNCTION = 'folio_search_text';

/**
 * Between two fields of an item's text (and two strings of a JSON value): not a word for either engine, so matching
 * is as with a space, but a snippet reads "Folio demo · news · Welcome", not "Folio demo news Welcome".
 */
export const FIELD_SEPARATOR = ' · ';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Text of one string: tags become spaces, entities their characters; control characters go (snippet markers). */
export function plainText(s: string): string {
  return (
    s
      .replace(/<[^>]*>/g, ' ')
      .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_m, name: string) => ENTITIES[name] ?? ' ')
      // eslint-disable-next-line no-control-regex -- control characters are what goes
      .replace(/[\u0000-\u0008\u000e-\u001f]/g, ' ')
  );
}

/** Every string in the JSON text `json`, as plain text, joined by FIELD_SEPARATOR; '' for null or non-JSON. */
export function searchText(json: unknown): string {
  if (typeof json !== 'string' || json === '') return '';
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return plainText(json);
  }
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      if (v.trim()) out.push(plainText(v));
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return out.join(FIELD_SEPARATOR);
}
