import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from './config.js';

/** The text of one `## ` section of the top-level README. */
function readmeSection(title: string): string {
  const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, `README has a "## ${title}" section`).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

describe('the README', () => {
  it('lists every environment variable the server reads, and no other', () => {
    const section = readmeSection('Configuration');
    const listed = new Set([...section.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    expect([...listed].sort()).toEqual([...ENV_VARIABLES].sort());
  });
});
