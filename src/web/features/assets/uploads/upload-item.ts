import type { AssetMetadata } from '../../../../shared/api/assets';
import { splitPath } from '../../../../shared/api/paths';

// One file of the upload queue, as the queue and the tray see it.

/** Where an upload is. `clash` waits for the user's choice; the last five are final (retry starts again). */
export type UploadStatus =
  | 'queued'
  | 'checking'
  | 'clash'
  | 'uploading'
  | 'processing'
  | 'done'
  | 'failed'
  | 'cancelled'
  | 'skipped'
  | 'refused';

/** What to do when the name is taken: replace the asset there, keep both (a new name), or skip the file. */
export type ClashChoice = 'replace' | 'keep-both' | 'skip';

/** One file of the queue, as the tray shows it. Items are immutable: every change makes a new one. */
export interface UploadItem {
  readonly id: string;
  readonly file: File;
  /** The folder it was dropped on (`Assets/…`). */
  readonly folder: string;
  /** Folders below `folder` (from a dropped directory); the server creates them on the way. */
  readonly subfolders: readonly string[];
  /** The name it goes to: the file's own, or a new one chosen on a clash. */
  readonly name: string;
  /** Files added together (one drop, one pick); a clash choice "for all" applies to its batch. */
  readonly batch: string;
  readonly status: UploadStatus;
  /** `replace` puts the file in the place of the asset at the path (chosen on a clash). */
  readonly mode: 'create' | 'replace';
  /** "Keep both" was chosen: the next free name is found when its turn comes. */
  readonly findFreeName?: boolean;
  /** Fields to set again once the file is up (a replace that had to delete the asset first). */
  readonly restore?: Record<string, string>;
  /** Bytes of the request sent so far, and of the whole request (the file and its form). */
  readonly loaded: number;
  readonly total: number;
  /** Average bytes per second while sending; null before the first progress. */
  readonly speed: number | null;
  /** What is at the path (on a clash, and what a replace replaces), with its ETag. */
  readonly existing?: { meta: AssetMetadata; etag: string | null };
  /** Why it failed or was refused. */
  readonly error?: string;
  /** The asset made or changed, and its ETag. */
  readonly result?: AssetMetadata;
  readonly resultEtag?: string | null;
}

/** True for items that will not move again without the user (done, failed, cancelled, skipped, refused). */
export function isFinished(item: UploadItem): boolean {
  return ['done', 'failed', 'cancelled', 'skipped', 'refused'].includes(item.status);
}

/** True for items the queue is working on or will work on (clashes wait for the user, so they are not). */
export function isActive(item: UploadItem): boolean {
  return ['queued', 'checking', 'uploading', 'processing'].includes(item.status);
}

/** The asset path (`Assets/<folder…>/<name>`) an item goes to. */
export function targetOf(item: Pick<UploadItem, 'folder' | 'subfolders' | 'name'>): string[] {
  return [...splitPath(item.folder), ...item.subfolders, item.name];
}
