// Loaded with `--import` by scripts/node24.mjs: whatever resolves into the project's better-sqlite3 (built for the
// machine's Node) is sent to the copy built for this Node instead. Vitest resolves packages to file URLs itself,
// so the resolved URL is what is matched, not the bare name.
import { register } from 'node:module';

const { FOLIO_SQLITE_FROM: from, FOLIO_SQLITE_TO: to } = process.env;
if (from && to) {
  register(
    `data:text/javascript,${encodeURIComponent(`
      const from = ${JSON.stringify(from)};
      const to = ${JSON.stringify(to)};
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context);
        return resolved.url.startsWith(from) ? { ...resolved, url: to + resolved.url.slice(from.length) } : resolved;
      }`)}`,
  );
}
