import { Extension, type Extensions } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import { GapCursor } from '@tiptap/pm/gapcursor';
import { Selection, type EditorState, type Transaction } from '@tiptap/pm/state';
import StarterKit from '@tiptap/starter-kit';

/*
 * The rich text editor's schema. What it can hold decides what round-trips: everything else in stored HTML is
 * reported by the fidelity check (fidelity.ts) and edited in the HTML view instead.
 */

/** Attributes kept on every element the editor holds, whatever its kind (besides each kind's own). */
export const GLOBAL_ATTRIBUTES = ['class', 'id', 'style', 'lang', 'dir', 'title', 'role'] as const;

/** Prefixes of attribute families kept on every element (`data-*`, `aria-*`). */
export const GLOBAL_ATTRIBUTE_PREFIXES = ['data-', 'aria-'] as const;

const NODE_TYPES = [
  'paragraph',
  'heading',
  'blockquote',
  'bulletList',
  'orderedList',
  'listItem',
  'codeBlock',
  'horizontalRule',
  'image',
  'table',
  'tableRow',
  'tableCell',
  'tableHeader',
] as const;
const MARK_TYPES = ['bold', 'italic', 'underline', 'strike', 'code', 'link'] as const;

/** Each kind's own attributes (kept by its extension, not by the global ones). */
export const OWN_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href', 'target', 'rel', 'title', 'class'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan'],
  ol: ['start', 'type'],
};

/**
 * Keeps `class`, `id`, `style`, `lang`, `dir`, `title`, `role` and every `data-*` / `aria-*` attribute on the nodes
 * and marks that carry them, so editing text next to them never drops them.
 */
const KeepAttributes = Extension.create({
  name: 'keepAttributes',
  addGlobalAttributes() {
    const named = Object.fromEntries(
      GLOBAL_ATTRIBUTES.map((name) => [
        name,
        {
          default: null,
          parseHTML: (el: HTMLElement) => el.getAttribute(name),
          renderHTML: (attrs: Record<string, unknown>) => (attrs[name] == null ? {} : { [name]: attrs[name] }),
        },
      ]),
    );
    const families = {
      default: null,
      parseHTML: (el: HTMLElement) => {
        const out: Record<string, string> = {};
        for (const a of Array.from(el.attributes)) {
          if (GLOBAL_ATTRIBUTE_PREFIXES.some((p) => a.name.startsWith(p))) out[a.name] = a.value;
        }
        return Object.keys(out).length ? out : null;
      },
      renderHTML: (attrs: Record<string, unknown>) => (attrs.familyAttributes as Record<string, string> | null) ?? {},
    };
    const except = (...names: string[]) =>
      Object.fromEntries(Object.entries(named).filter(([n]) => !names.includes(n)));
    return [
      // Links have their own `class` and `title`, images their own `title`: the global ones cover the rest.
      {
        types: [...NODE_TYPES.filter((t) => t !== 'image'), ...MARK_TYPES.filter((t) => t !== 'link')],
        attributes: named,
      },
      { types: ['link'], attributes: except('class', 'title') },
      { types: ['image'], attributes: except('title') },
      { types: [...NODE_TYPES, ...MARK_TYPES], attributes: { familyAttributes: families } },
    ];
  },
});

/** A table written as plain HTML: no sizing `colgroup` or `min-width` style of the editor's own. */
const PlainTable = Table.extend({
  renderHTML({ HTMLAttributes }) {
    return ['table', HTMLAttributes, ['tbody', 0]];
  },
});

/**
 * Where Ctrl+Home / Ctrl+End (⌘↑ / ⌘↓) lead: the very start or end of the text. When a table (or another block
 * that holds no text itself) starts or ends the text, that is a gap cursor before or after it, where typing adds a
 * paragraph — the browser's own move put the caret outside anything the editor holds, so what was typed there was
 * shown but never saved. Nothing is added until the person types, so moving there changes nothing.
 */
export function selectionAtDocEdge(state: EditorState, edge: 'start' | 'end'): Selection {
  const { doc } = state;
  const $edge = doc.resolve(edge === 'start' ? 0 : doc.content.size);
  const block = edge === 'start' ? doc.firstChild : doc.lastChild;
  // A gap cursor fits beside a block the cursor cannot enter from there: a table (isolating) or a line (an atom).
  if (block && (block.isAtom || block.type.spec.isolating)) return new GapCursor($edge);
  return edge === 'start' ? Selection.atStart(doc) : Selection.atEnd(doc);
}

const isMacPlatform = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Ctrl+Home and Ctrl+End (on a Mac also ⌘↑ and ⌘↓) go to the text's edges, past a table there. */
const DocEdges = Extension.create({
  name: 'docEdges',
  addKeyboardShortcuts() {
    const go = (edge: 'start' | 'end') => () => {
      const { state, view } = this.editor;
      const tr: Transaction = state.tr.setSelection(selectionAtDocEdge(state, edge)).scrollIntoView();
      view.dispatch(tr);
      return true;
    };
    return {
      'Mod-Home': go('start'),
      'Mod-End': go('end'),
      ...(isMacPlatform ? { 'Mod-ArrowUp': go('start'), 'Mod-ArrowDown': go('end') } : {}),
    };
  },
});

/** The editor's extensions: headings 1–6 are held (the toolbar offers 2–4), links keep exactly their attributes. */
export function richTextExtensions(): Extensions {
  return [
    StarterKit.configure({
      heading: { levels: [1, 2, 3, 4, 5, 6] },
      // Links keep the target and rel they have; "open in a new tab" sets them explicitly.
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: 'https',
        HTMLAttributes: { target: null, rel: null, class: null },
      },
      // An empty paragraph added after a final table or list would change content nobody touched.
      trailingNode: false,
    }),
    Image.configure({ inline: true, allowBase64: false }),
    PlainTable.configure({ resizable: false, allowTableNodeSelection: true }),
    TableRow,
    TableHeader,
    TableCell,
    KeepAttributes,
    DocEdges,
  ];
}

/**
 * The HTML the editor saves: its own output, with leading rows made only of header cells put back into a
 * `<thead>` (the editor holds rows, not row groups).
 */
export function serializeEditorHtml(html: string): string {
  if (!html.includes('<table')) return html;
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const table of Array.from(doc.body.querySelectorAll('table'))) {
    const body = table.querySelector(':scope > tbody');
    if (!body || table.querySelector(':scope > thead')) continue;
    const head = doc.createElement('thead');
    while (body.firstElementChild && isHeaderRow(body.firstElementChild) && body.children.length > 1) {
      head.appendChild(body.firstElementChild);
    }
    if (head.children.length) table.insertBefore(head, body);
  }
  return doc.body.innerHTML;
}

function isHeaderRow(row: Element): boolean {
  return row.tagName === 'TR' && row.children.length > 0 && Array.from(row.children).every((c) => c.tagName === 'TH');
}
