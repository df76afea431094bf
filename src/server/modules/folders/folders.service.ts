import type { AppContext } from '../../lib/context.js';
import { createFolderDeletes } from './folders.delete.js';
import { createFolderReads } from './folders.read.js';
import { represent } from './folders.represent.js';
import { createTransfers, type EtagSource } from './folders.transfer.js';
import { createFolderWrites } from './folders.write.js';

export type { Preconditions, Represented } from './folders.represent.js';
export type { EtagSource };

/**
 * Sites, folders, sections, section links, external links and asset folders: rules and transactions. Each part
 * lives in its own file: reads (`folders.read.ts`), PUT (`folders.write.ts`), DELETE (`folders.delete.ts`), and
 * move, copy and rename (`folders.transfer.ts`).
 */
export function createFoldersService(ctx: AppContext) {
  return {
    ...createFolderReads(ctx),
    ...createFolderWrites(ctx),
    ...createFolderDeletes(ctx),
    ...createTransfers(ctx, { represent }),
  };
}

export type FoldersService = ReturnType<typeof createFoldersService>;
