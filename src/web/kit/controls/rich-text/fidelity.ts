import { GLOBAL_ATTRIBUTE_PREFIXES, GLOBAL_ATTRIBUTES, OWN_ATTRIBUTES } from './extensions';

/*
 * Does HTML survive the visual editor? Both the stored HTML and what the editor would save are brought to a
 * canonical form and compared. Differences that change nothing for a reader are equivalences:
 *   - attribute order; whitespace runs (outside <pre>) and whitespace between blocks;
 *   - <b> ≡ <strong>, <i> ≡ <em>, <del>/<strike> ≡ <s>;
 *   - a <span> without attributes is its content; <thead>/<tbody>/<tfoot> group rows (the editor saves leading
 *     header rows as <thead>); <colgroup> carries only sizes;
 *   - text directly in the page, a list item, a cell or a quote ≡ the same text in one paragraph; "" ≡ <p></p>;
 *   - colspan="1"/rowspan="1", <ol start="1"> are defaults.
 * Anything else that differs — an element or attribute the editor cannot hold, a comment, a changed structure —
 * makes the HTML "not representable": the field then opens in the HTML view.
 */

/** Elements the editor holds. */
const SUPPORTED_ELEMENTS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  'u',
  's',
  'code',
  'pre',
  'a',
  'ul',
  'ol',
  'li',
  'blockquote',
  'hr',
  'br',
  'img',
  'table',
  'tr',
  'td',
  'th',
]);

const ALIASES: Record<string, string> = { b: 'strong', i: 'em', del: 's', strike: 's' };
const TRANSPARENT = new Set(['thead', 'tbody', 'tfoot']);
const DROPPED = new Set(['colgroup', 'col']);
const BLOCK = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'hr',
  'table',
  'tr',
  'td',
  'th',
  'div',
  'section',
  'article',
  'aside',
  'header',
  'footer',
  'nav',
  'figure',
  'figcaption',
  'iframe',
  'script',
  'style',
  'form',
  'details',
  'summary',
  'main',
  'dl',
  'dt',
  'dd',
  'video',
  'audio',
  'object',
  'embed',
  'noscript',
  'template',
]);
/** Containers whose inline content the editor wraps in a paragraph. */
const WRAPS_INLINE = new Set(['#root', 'li', 'td', 'th', 'blockquote']);

type CNode =
  | { kind: 'el'; tag: string; attrs: [string, string][]; children: CNode[] }
  | { kind: 'text'; text: string }
  | { kind: 'comment'; text: string };

/** What the check found. */
export interface Fidelity {
  /** True when the editor would save the HTML unchanged (up to the equivalences above). */
  representable: boolean;
  /** What the editor cannot hold, in words ("an <iframe> element", "the attribute hreflang on <a>"). */
  losses: string[];
}

function normaliseStyle(style: string): string {
  return style
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => {
      const i = d.indexOf(':');
      return i < 0 ? d : `${d.slice(0, i).trim().toLowerCase()}: ${d.slice(i + 1).trim()}`;
    })
    .join('; ');
}

function attributesOf(el: Element, tag: string): [string, string][] {
  const out: [string, string][] = [];
  for (const a of Array.from(el.attributes)) {
    let value = a.value;
    if ((a.name === 'colspan' || a.name === 'rowspan') && value === '1') continue;
    if (a.name === 'start' && tag === 'ol' && value === '1') continue;
    if (a.name === 'class') value = value.trim().split(/\s+/).join(' ');
    if (a.name === 'style') value = normaliseStyle(value);
    if ((a.name === 'class' || a.name === 'style') && value === '') continue;
    out.push([a.name, value]);
  }
  return out.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
}

function convert(node: Node, inPre: boolean): CNode[] {
  if (node.nodeType === 3)
    return [{ kind: 'text', text: inPre ? node.nodeValue! : node.nodeValue!.replace(/\s+/g, ' ') }];
  if (node.nodeType === 8) return [{ kind: 'comment', text: node.nodeValue ?? '' }];
  if (node.nodeType !== 1) return [];
  const el = node as Element;
  const raw = el.tagName.toLowerCase();
  if (DROPPED.has(raw)) return [];
  const tag = ALIASES[raw] ?? raw;
  const children = Array.from(el.childNodes).flatMap((c) => convert(c, inPre || tag === 'pre'));
  if (TRANSPARENT.has(tag)) return children;
  const attrs = attributesOf(el, tag);
  if (tag === 'span' && attrs.length === 0) return children;
  return [{ kind: 'el', tag, attrs, children }];
}

const isBlock = (n: CNode) => n.kind === 'el' && BLOCK.has(n.tag);
const isBlank = (n: CNode) => n.kind === 'text' && n.text.trim() === '';

/** Drops whitespace between blocks, trims text at block edges, merges adjacent text, wraps inline runs. */
function tidy(children: CNode[], container: string, inPre: boolean): CNode[] {
  let list = children.map((c) =>
    c.kind === 'el' ? { ...c, children: tidy(c.children, c.tag, inPre || c.tag === 'pre') } : c,
  );
  // Merge adjacent text nodes.
  const merged: CNode[] = [];
  for (const c of list) {
    const last = merged[merged.length - 1];
    if (c.kind === 'text' && last?.kind === 'text')
      merged[merged.length - 1] = { kind: 'text', text: last.text + c.text };
    else merged.push(c);
  }
  list = merged;
  if (inPre) return list;
  const containerIsBlock = container === '#root' || BLOCK.has(container);
  if (containerIsBlock) {
    list = list.filter((c, i) => {
      if (!isBlank(c)) return true;
      const prev = list[i - 1];
      const next = list[i + 1];
      return !(prev === undefined || next === undefined || isBlock(prev) || isBlock(next));
    });
    // Trim whitespace at the edges of a block and next to blocks inside it.
    list = list
      .map((c, i) => {
        if (c.kind !== 'text') return c;
        let text = c.text;
        const prev = list[i - 1];
        const next = list[i + 1];
        if (prev === undefined || isBlock(prev) || (prev.kind === 'el' && prev.tag === 'br'))
          text = text.replace(/^ /, '');
        if (next === undefined || isBlock(next)) text = text.replace(/ $/, '');
        return { kind: 'text', text } as CNode;
      })
      .filter((c) => !(c.kind === 'text' && c.text === ''));
  }
  if (WRAPS_INLINE.has(container)) {
    const out: CNode[] = [];
    let run: CNode[] = [];
    const flush = () => {
      if (run.length) out.push({ kind: 'el', tag: 'p', attrs: [], children: run });
      run = [];
    };
    for (const c of list) {
      if (isBlock(c) || c.kind === 'comment') {
        flush();
        out.push(c);
      } else run.push(c);
    }
    flush();
    if (out.length === 0 && container !== '#root') out.push({ kind: 'el', tag: 'p', attrs: [], children: [] });
    list = out;
  }
  return list;
}

function canonical(html: string): CNode[] {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
  // The parser puts <head>-only elements (style, meta, title) into <head>: they are content too.
  const fromHead = Array.from(doc.head.childNodes).flatMap((c) => convert(c, false));
  const nodes = [...fromHead, ...Array.from(doc.body.childNodes).flatMap((c) => convert(c, false))];
  const tidied = tidy(nodes, '#root', false);
  return tidied.length ? tidied : [{ kind: 'el', tag: 'p', attrs: [], children: [] }];
}

function same(a: CNode[], b: CNode[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i]!;
    if (x.kind !== y.kind) return false;
    if (x.kind === 'text' || x.kind === 'comment') return x.text === (y as typeof x).text;
    const ye = y as typeof x;
    return (
      x.tag === ye.tag &&
      x.attrs.length === ye.attrs.length &&
      x.attrs.every(([n, v], j) => ye.attrs[j]![0] === n && ye.attrs[j]![1] === v) &&
      same(x.children, ye.children)
    );
  });
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

function isKeptAttribute(tag: string, name: string): boolean {
  return (
    (GLOBAL_ATTRIBUTES as readonly string[]).includes(name) ||
    GLOBAL_ATTRIBUTE_PREFIXES.some((p) => name.startsWith(p)) ||
    (OWN_ATTRIBUTES[tag] ?? []).includes(name)
  );
}

/** What in the stored HTML the editor cannot hold, in words (each once). */
function lossesOf(nodes: CNode[], out: Set<string>): Set<string> {
  for (const n of nodes) {
    if (n.kind === 'comment') out.add('an HTML comment');
    if (n.kind !== 'el') continue;
    if (!SUPPORTED_ELEMENTS.has(n.tag)) out.add(`${article(n.tag)} <${n.tag}> element`);
    else {
      for (const [name] of n.attrs) if (!isKeptAttribute(n.tag, name)) out.add(`the attribute “${name}” on <${n.tag}>`);
    }
    if (n.tag === 'img' && n.attrs.some(([name, v]) => name === 'src' && v.startsWith('data:'))) {
      out.add('an image embedded as data');
    }
    lossesOf(n.children, out);
  }
  return out;
}

/**
 * Compares stored HTML with what the editor would save from it (`produced`: the editor's serialised output after
 * loading `original`). Representable when they are equivalent; otherwise `losses` says what would go.
 */
export function checkFidelity(original: string, produced: string): Fidelity {
  const before = canonical(original);
  const after = canonical(produced);
  if (same(before, after)) return { representable: true, losses: [] };
  const losses = [...lossesOf(before, new Set())];
  return {
    representable: false,
    losses: losses.length ? losses : ['the way this HTML is structured (the editor would rearrange it)'],
  };
}

/** "an iframe, a <section> element and the attribute x on <a>". */
export function listLosses(losses: readonly string[]): string {
  if (losses.length <= 1) return losses[0] ?? '';
  return `${losses.slice(0, -1).join(', ')} and ${losses[losses.length - 1]}`;
}
