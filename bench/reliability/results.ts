import fs from 'node:fs';
import path from 'node:path';
import { RESULTS } from '../lib/paths.js';

/**
 * bench/results/reliability-<date>.json: each suite adds its section (counts by status and the like).
 * `FOLIO_RELIABILITY_RESULTS_DIR` sends it elsewhere (`npm test` does, so a test run leaves the tree clean).
 */
export function recordResult(section: string, value: unknown): void {
  const dir = process.env.FOLIO_RELIABILITY_RESULTS_DIR || RESULTS;
  const file = path.join(dir, `reliability-${new Date().toISOString().slice(0, 10)}.json`);
  fs.mkdirSync(dir, { recursive: true });
  const current = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  current[section] = { ...(value as object), recordedAt: new Date().toISOString() };
  fs.writeFileSync(file, `${JSON.stringify(current, null, 2)}\n`);
}
