import type { SearchHit, SearchKind } from '../../../shared/api/search.js';
import type { WorkflowState } from '../../../shared/api/workflow.js';
import { MARK_CLOSE, MARK_OPEN, type HitDetails, type SearchAfter } from './search.repository.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

/** Splits a snippet at its marks, keeping them. */
const MARKS = new RegExp(`([${MARK_OPEN}${MARK_CLOSE}])`);

/** A snippet from the engine as HTML: everything escaped, the matched runs in `<mark>`, nothing else. */
export function snippetHtml(raw: string): string {
  let out = '';
  let open = false;
  for (const part of raw.split(MARKS)) {
    if (part === MARK_OPEN) {
      if (!open) out += '<mark>';
      open = true;
    } else if (part === MARK_CLOSE) {
      if (open) out += '</mark>';
      open = false;
    } else out += escapeHtml(part.replace(/\s+/g, ' '));
  }
  return (open ? out + '</mark>' : out).trim();
}

/** A stored time (`…Z`) as the contract's (`…+0000`). */
function referenceTime(iso: string): string {
  const d = new Date(iso);
  return (Number.isNaN(d.getTime()) ? iso : d.toISOString()).replace(/Z$/, '+0000');
}

/** A hit as the contract's JSON. */
export function presentHit(kind: SearchKind, path: string, title: string, d: HitDetails | undefined): SearchHit {
  return {
    kind,
    path,
    title,
    type: d?.type ?? '',
    state: (d?.state ?? null) as WorkflowState | null,
    modified: d?.modified ? referenceTime(d.modified) : null,
    snippet: snippetHtml(d?.snippet ?? ''),
  };
}

/** Where a page starts: after a hit, among the matches from `floor` up (null: all of them; see the repository). */
export interface SearchCursor {
  after: SearchAfter;
  floor: number | null;
}

/** The opaque cursor after a hit. */
export function encodeCursor({ after, floor }: SearchCursor): string {
  const v = [after.tier, after.score, after.id, ...(floor === null ? [] : [floor])];
  return Buffer.from(JSON.stringify(v)).toString('base64url');
}

/** The position a cursor names; null when it is not one this server made. */
export function decodeCursor(cursor: string): SearchCursor | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(v) &&
      (v.length === 3 || (v.length === 4 && Number.isSafeInteger(v[3]))) &&
      (v[0] === 0 || v[0] === 1) &&
      typeof v[1] === 'number' &&
      Number.isFinite(v[1]) &&
      Number.isSafeInteger(v[2])
    )
      return { after: { tier: v[0], score: v[1], id: v[2] }, floor: v.length === 4 ? (v[3] as number) : null };
  } catch {
    // not JSON: not ours
  }
  return null;
}
