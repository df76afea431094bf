/**
 * What the editor typed, as terms of words: user text is never handed to FTS5 `MATCH` or `to_tsquery` as syntax.
 * `"a phrase"` is one term (an unclosed quote runs to the end), `-word` / `-"a phrase"` excludes, every other run
 * of non-space characters is a term, and the last term, when it is a bare word at the very end, also matches as a
 * prefix (the editor is still typing it). A term's words are its letters and digits (`e-mail` is the phrase
 * `e mail`, as the indexes split it); a term without any is dropped.
 */
export interface SearchTerm {
  words: string[];
  prefix: boolean;
}

export interface ParsedSearch {
  include: SearchTerm[];
  exclude: SearchTerm[];
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** The terms of `q` (see the module comment). */
export function parseSearch(q: string): ParsedSearch {
  const include: SearchTerm[] = [];
  const exclude: SearchTerm[] = [];
  const text = q.trim();
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++;
      continue;
    }
    let negative = false;
    if (text[i] === '-' && i + 1 < text.length && !/\s/.test(text[i + 1]!)) {
      negative = true;
      i++;
    }
    let raw: string;
    let quoted = false;
    if (text[i] === '"') {
      quoted = true;
      const end = text.indexOf('"', i + 1);
      raw = text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end + 1;
    } else {
      let end = i;
      while (end < text.length && !/\s/.test(text[end]!) && text[end] !== '"') end++;
      raw = text.slice(i, end);
      i = end;
    }
    const words = (raw.toLowerCase().match(WORD) ?? []).slice(0, 16);
    if (words.length === 0) continue;
    const atEnd = i >= text.length;
    (negative ? exclude : include).push({ words, prefix: !negative && !quoted && atEnd });
  }
  return { include: include.slice(0, 16), exclude: exclude.slice(0, 16) };
}

const fts5Term = (t: SearchTerm) => `"${t.words.join(' ')}"${t.prefix ? ' *' : ''}`;

/** The FTS5 `MATCH` expression of the terms: each a quoted string of letters and digits only. */
export function fts5Match(s: ParsedSearch): string {
  const must = s.include.map(fts5Term).join(' AND ');
  return s.exclude.length ? `(${must}) NOT (${s.exclude.map(fts5Term).join(' OR ')})` : must;
}

/** The FTS5 expression of the words to find, without the excluded ones (for the title index). */
export function fts5Include(s: ParsedSearch): string {
  return s.include.map(fts5Term).join(' AND ');
}

/** The FTS5 expression of the excluded terms; null when there are none. */
export function fts5Exclude(s: ParsedSearch): string | null {
  return s.exclude.length ? s.exclude.map(fts5Term).join(' OR ') : null;
}
