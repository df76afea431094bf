/**
 * Everything of the explorer that is not needed to draw the app frame: the tree, the find field, the dialogs and
 * the item screens. One lazily loaded module, so the libraries they share (react-aria's tree, drag and drop,
 * virtualiser, combo box) land in one chunk that loads right after the frame.
 */
export { ExplorerTreePanel } from './tree-panel';
export { FindField } from './find-field';
export { ExplorerDialogs } from './explorer-dialogs';
export { FolderScreen } from './folder-screen';
