import { ItemName } from '../../../../shared/api/common';

/** Where a dropped file goes below the folder it was dropped on: sub-folders of a dropped directory, and its name. */
export interface UploadPlace {
  subfolders: string[];
  name: string;
}

/** A name as the library stores it: NFC (macOS hands over decomposed names), no spaces around it. */
function tidy(name: string): string {
  return name.normalize('NFC').trim();
}

/**
 * The sub-folders and name of a file from its relative path in a drop (`./a.png`, `/photos/2024/a.png` from a
 * dropped directory); a problem in words when a segment is not a valid name.
 */
export function uploadPlaceOf(fileName: string, relativePath?: string): UploadPlace | { problem: string } {
  const segments = (relativePath ?? '')
    .replace(/^\.?\//, '')
    .split('/')
    .map(tidy)
    .filter((s) => s.length > 0);
  const name = tidy(fileName);
  const folders = segments.length > 1 ? segments.slice(0, -1) : [];
  for (const segment of [...folders, name]) {
    const checked = ItemName.safeParse(segment);
    if (!checked.success)
      return { problem: `The name “${segment}” ${checked.error.issues[0]?.message ?? 'is not valid'}.` };
  }
  return { subfolders: folders, name };
}

/** `logo.png` → `logo-2.png`, `logo-3.png`…; names without an extension get the number at the end. */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return `${name}-${n}`;
  return `${name.slice(0, dot)}-${n}${name.slice(dot)}`;
}

/** The first numbered variant of `name` that `isTaken` says is free (`logo-2.png` first). */
export async function uniqueName(name: string, isTaken: (candidate: string) => Promise<boolean>): Promise<string> {
  for (let n = 2; ; n++) {
    const candidate = numberedName(name, n);
    if (!(await isTaken(candidate))) return candidate;
  }
}
