import type { AssetFileInfo, AssetImageInfo, AssetMetadata } from '../../../shared/api/assets.js';
import { assetTypeDef } from '../../../shared/registry/index.js';
import type { Actor } from '../../lib/context.js';
import { etagForIfMatch } from '../../lib/etag.js';
import { serialise } from '../../lib/respond.js';
import { rejectionOf, scheduleOf } from '../../lib/workflow.js';
import type { AssetRow } from './assets.repository.js';

/** `2026-01-02T03:04:05.678Z` → `2026-01-02T03:04:05.678+0000`, the reference system's timestamps. */
export function referenceTime(iso: string): string {
  const d = new Date(iso);
  return (Number.isNaN(d.getTime()) ? iso : d.toISOString()).replace(/Z$/, '+0000');
}

/** A stored field value as the contract sends it: a string (`""` too, as it was sent), or null when unset. */
function fieldValue(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Every field key of the asset's type, in registry order, with its value or null. */
export function presentFields(type: string, stored: Record<string, unknown>): Record<string, string | null> {
  const def = assetTypeDef(type);
  const out: Record<string, string | null> = {};
  const keys = def ? def.fields.map((f) => f.key) : Object.keys(stored);
  for (const key of keys) out[key] = fieldValue(stored[key]);
  return out;
}

function parseJson(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.max(0, Math.round(v)) : 0);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function presentImage(j: Record<string, unknown> | null): AssetImageInfo | undefined {
  if (!j) return undefined;
  return {
    filename: typeof j.filename === 'string' ? j.filename : null,
    extension: str(j.extension),
    size: int(j.size),
    type: str(j.type),
    width: int(j.width),
    height: int(j.height),
  };
}

function presentFile(j: Record<string, unknown> | null): AssetFileInfo | undefined {
  if (!j) return undefined;
  return {
    filename: typeof j.filename === 'string' ? j.filename : null,
    extension: str(j.extension),
    size: int(j.size),
    type: str(j.type),
  };
}

/** Asset row → metadata of the contract (2.7). `folderPath` is `Assets` or `Assets/<folder…>`. */
export function presentAsset(row: AssetRow, folderPath: string): AssetMetadata {
  const stored = parseJson(row.fields) ?? {};
  const image = presentImage(parseJson(row.image));
  const thumbnail = presentImage(parseJson(row.thumbnail));
  const file = presentFile(parseJson(row.file));
  return {
    fields: presentFields(row.type, stored),
    id: row.id,
    name: row.name,
    type: row.type,
    folderPath,
    workflow: {
      name: row.workflow_name,
      state: row.workflow_state,
      checkedOut: row.checked_out === 1,
      checkedOutUser: row.checked_out_user,
      rejection: rejectionOf(row.rejection),
      ...scheduleOf(row),
    },
    lastModifiedDate: referenceTime(row.updated_at),
    createdDate: referenceTime(row.created_at),
    ...(image ? { image } : {}),
    ...(thumbnail ? { thumbnail } : {}),
    ...(file ? { file } : {}),
  };
}

/** Metadata with the exact JSON to send and its ETag. */
export interface AssetRepresentation {
  meta: AssetMetadata;
  json: string;
  etag: string;
}

/** Asset row → its metadata, exact JSON and ETag. `folder` is the asset's folder path as segments. */
export function representAsset(row: AssetRow, folder: readonly string[]): AssetRepresentation {
  const meta = presentAsset(row, folder.join('/'));
  return { meta, ...serialise(meta) };
}

/**
 * The ETag an `If-Match` of `row` is compared with: a lease is not content, so the asset's ETag with other
 * check-out fields (free, or held by `actor`) is good too (lib/etag.ts etagForIfMatch).
 */
export function assetIfMatchEtag(
  ifMatch: string | undefined,
  row: AssetRow,
  folder: readonly string[],
  actor: Actor,
): string {
  return etagForIfMatch(ifMatch, representAsset(row, folder).etag, () => [
    representAsset({ ...row, checked_out: 0, checked_out_user: '' }, folder).etag,
    representAsset({ ...row, checked_out: 1, checked_out_user: actor.username }, folder).etag,
  ]);
}
