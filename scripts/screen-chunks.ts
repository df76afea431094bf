import path from 'node:path';

/** What a chunking pass knows of a module (rolldown's `ChunkingContext.getModuleInfo`, the field used here). */
interface GraphInfo {
  importedIds: readonly string[];
}
interface GraphContext {
  getModuleInfo(id: string): GraphInfo | null;
}

/** Every module reachable from `roots` through static imports (the roots included). */
function staticClosure(ctx: GraphContext, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    const info = ctx.getModuleInfo(id);
    if (!info) continue;
    seen.add(id);
    stack.push(...info.importedIds);
  }
  return seen;
}

/**
 * The chunk of a module the page editor loads on opening (a tab opened on /pages/…), by the sources under `srcDir`,
 * beyond what the first screen loads: `schemas` (the response schemas the API client loads lazily) and `editor` (the
 * editor route's code and what it imports), each with its libraries apart (`-libs`, they change less often).
 * Everything else: null (the groups after this one and rolldown's own splitting). The lazy modules themselves
 * (the route, first-screen-data, client-schemas) stay chunks of their own: the manifest keeps them as entries.
 *
 * Per set of entries (`entriesAware` alone) the editor came as ~50 files and the schemas as 12; in a fresh tab each
 * file costs a read from the HTTP cache and a turn on one of Chrome's 6 connections before the editor can render
 * (bench/NOTES.md, "2026-11-30 (ed3)"). Other screens that share code with the editor load these chunks whole: the
 * explorer's tree (on every signed-in screen) already needs most of them.
 */
export function screenChunkOf(id: string, ctx: GraphContext, srcDir: string): string | null {
  const sets = setsOf(ctx, srcDir);
  if (sets.roots.has(id)) return null;
  const libs = id.includes('node_modules') ? '-libs' : '';
  if (sets.schemas.has(id)) return `schemas${libs}`;
  if (sets.editor.has(id)) return `editor${libs}`;
  return null;
}

interface Sets {
  ctx: GraphContext;
  roots: Set<string>;
  schemas: Set<string>;
  editor: Set<string>;
}
let cached: Sets | undefined;

function setsOf(ctx: GraphContext, srcDir: string): Sets {
  if (cached?.ctx === ctx) return cached;
  const at = (file: string) => path.join(srcDir, file);
  const schemasRoot = at('shared/api/client-schemas.ts');
  // main.tsx asks for first-screen-data at once on /pages/….
  const editorRoots = [at('web/app/routes/page-editor-route.tsx'), at('web/app/first-screen-data.ts')];
  // App code only: the libraries the first screen loads are taken by the groups before this one (their `$initial`
  // tag); a static closure over-counts them (a barrel's unused re-exports are dropped later).
  const initial = new Set([...staticClosure(ctx, [at('web/main.tsx')])].filter((id) => !id.includes('node_modules')));
  const schemas = new Set([...staticClosure(ctx, [schemasRoot])].filter((id) => !initial.has(id)));
  const editor = new Set([...staticClosure(ctx, editorRoots)].filter((id) => !initial.has(id) && !schemas.has(id)));
  cached = { ctx, roots: new Set([schemasRoot, ...editorRoots]), schemas, editor };
  return cached;
}
