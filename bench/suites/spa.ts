import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { WEB_DIR } from '../lib/paths.js';

interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export interface Sizes {
  raw: number;
  gzip: number;
}

export interface SpaResult {
  buildMs: number;
  initialJs: Sizes & { files: string[] };
  initialCss: Sizes & { files: string[] };
  /** Every chunk loaded on demand (dynamic imports and what only they import), by the source that starts it. */
  lazy: (Sizes & { entry: string; files: string[] })[];
  /**
   * The editors that must load lazily, each with what its lazy entry adds beyond the first screen, and whether
   * the first screen's JS is free of it (a marker string of the library is not in any initial file).
   */
  editors: (Sizes & { name: string; entry: string; notInitial: boolean })[];
}

/** The editors the first screen must not carry: the lazy entry that brings each, and a string only its code has. */
const EDITORS = [
  {
    name: 'rich text editor (tiptap)',
    entry: /kit\/controls\/rich-text\/rich-text-control\.tsx$/,
    marker: 'ProseMirror',
  },
  { name: 'code editor (CodeMirror)', entry: /kit\/controls\/code\/code-editor\.tsx$/, marker: 'cm-editor' },
  { name: 'page editor', entry: /(features\/pages|page-editor)/, marker: null },
];

function sizesOf(files: string[]): Sizes {
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const data = fs.readFileSync(path.join(WEB_DIR, f));
    raw += data.length;
    gzip += zlib.gzipSync(data, { level: 9 }).length;
  }
  return { raw, gzip };
}

/**
 * Sizes of the built SPA from Vite's manifest: what the browser must load before the first screen (the entry
 * and its static imports, with their CSS) and each lazily loaded part. Gzip at level 9 (as a server or CDN
 * would send it; Folio's own server sends the files uncompressed).
 */
export function spaSuite(buildMs: number, log: (line: string) => void): SpaResult {
  const manifestFile = path.join(WEB_DIR, '.vite/manifest.json');
  if (!fs.existsSync(manifestFile))
    throw new Error('No .vite/manifest.json: build.manifest must be on in vite.config.ts');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entryKey) throw new Error('The manifest has no entry');

  const closure = (start: string[]) => {
    const seen = new Set<string>();
    const walk = (k: string) => {
      if (seen.has(k) || !manifest[k]) return;
      seen.add(k);
      for (const i of manifest[k]!.imports ?? []) walk(i);
    };
    start.forEach(walk);
    return seen;
  };
  const initial = closure([entryKey]);
  const filesOf = (keys: Set<string>, kind: 'js' | 'css') =>
    [...new Set([...keys].flatMap((k) => (kind === 'js' ? [manifest[k]!.file] : (manifest[k]!.css ?? []))))].filter(
      (f) => f.endsWith(`.${kind}`),
    );
  const initialJs = filesOf(initial, 'js');
  const initialCss = filesOf(initial, 'css');

  const lazyKeys = Object.keys(manifest).filter((k) => manifest[k]!.isDynamicEntry);
  const lazy = lazyKeys.map((k) => {
    const own = new Set([...closure([k])].filter((x) => !initial.has(x)));
    const files = [...filesOf(own, 'js'), ...filesOf(own, 'css')];
    return { entry: manifest[k]!.src ?? k, files, ...sizesOf(files) };
  });
  const initialText = initialJs.map((f) => fs.readFileSync(path.join(WEB_DIR, f), 'utf8')).join('\n');
  const editors = EDITORS.flatMap(({ name, entry, marker }) => {
    const found = lazy.find((l) => entry.test(l.entry));
    if (!found) return [];
    return [
      {
        name,
        entry: found.entry,
        raw: found.raw,
        gzip: found.gzip,
        notInitial: !marker || !initialText.includes(marker),
      },
    ];
  });
  const res: SpaResult = {
    buildMs,
    initialJs: { files: initialJs, ...sizesOf(initialJs) },
    initialCss: { files: initialCss, ...sizesOf(initialCss) },
    lazy,
    editors,
  };
  const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  log(
    `  initial JS ${kB(res.initialJs.raw)} (gzip ${kB(res.initialJs.gzip)}), CSS ${kB(res.initialCss.raw)} (gzip ${kB(res.initialCss.gzip)});` +
      ` ${lazy.length} lazy chunk(s); ${editors.map((e) => `${e.name} ${kB(e.gzip)} gzip`).join(', ')}`,
  );
  return res;
}
