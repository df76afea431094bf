/** Id of the hidden root node: the parent of every site and of the asset library. */
export const ROOT_NODE_ID = '0-0-1';
/** Id of the asset library node, named `Assets`, the root of every asset folder. */
export const LIBRARY_NODE_ID = '0-0-2';
/** Name of the asset library: the first segment of every asset path. */
export const LIBRARY_NAME = 'Assets';
/** Id of the hidden trash root (migration 0330): deleted items wait below it, out of every path, until purged. */
export const TRASH_NODE_ID = '0-0-3';
