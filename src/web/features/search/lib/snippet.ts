/** A run of a snippet's text, marked when it is one of the words that matched. */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** The text of HTML-escaped text: named entities above and numeric ones (`&#39;`, `&#x27;`); others stay as written. */
export function unescapeHtml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * A search snippet (escaped text with the matched words in `<mark>…</mark>`) as plain text runs, for React to
 * render as text nodes: nothing of it is ever parsed as HTML. Any other tag-like text stays visible as text.
 */
export function parseSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  const push = (text: string, marked: boolean) => {
    if (!text) return;
    const last = parts[parts.length - 1];
    if (last && last.marked === marked) last.text += text;
    else parts.push({ text, marked });
  };
  const re = /<mark>([\s\S]*?)<\/mark>/gi;
  let at = 0;
  for (let m = re.exec(snippet); m; m = re.exec(snippet)) {
    push(unescapeHtml(snippet.slice(at, m.index)), false);
    push(unescapeHtml(m[1] ?? ''), true);
    at = m.index + m[0].length;
  }
  push(unescapeHtml(snippet.slice(at)), false);
  return parts;
}
