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
  /** The lazy chunk of the page editor, when one exists (its source path mentions "editor"). */
  editorChunk: (Sizes & { entry: string }) | null;
}

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
  const editor = lazy.find((l) => /editor/i.test(l.entry)) ?? null;
  const res: SpaResult = {
    buildMs,
    initialJs: { files: initialJs, ...sizesOf(initialJs) },
    initialCss: { files: initialCss, ...sizesOf(initialCss) },
    lazy,
    editorChunk: editor ? { entry: editor.entry, raw: editor.raw, gzip: editor.gzip } : null,
  };
  const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  log(
    `  initial JS ${kB(res.initialJs.raw)} (gzip ${kB(res.initialJs.gzip)}), CSS ${kB(res.initialCss.raw)} (gzip ${kB(res.initialCss.gzip)});` +
      ` ${lazy.length} lazy chunk(s)${editor ? `, editor ${kB(editor.gzip)} gzip` : ', no editor chunk yet'}`,
  );
  return res;
}
