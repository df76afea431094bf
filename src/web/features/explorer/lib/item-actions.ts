import type { TransitionName, TransitionsResponse } from '../../../../shared/api/workflow';
import { sortTransitions, transitionLabel } from '../../../kit/workflow/transitions';
import type { CreatableKind } from '../components/explorer-context';
import { isMovable, isNavigationEntry, type ExplorerItem } from '../../../lib/tree/items';

/** What can be done to an item from its context menu, its "…" button or its screen. */
export type ItemAction =
  | 'open'
  | `new-${CreatableKind}`
  | 'rename'
  | 'move'
  | 'move-up'
  | 'move-down'
  | 'delete'
  | `transition-${TransitionName}`;

export interface ActionEntry {
  id: ItemAction;
  label: string;
  /** Group of the menu the entry belongs to (separators go between groups). */
  group: 'open' | 'create' | 'workflow' | 'change' | 'delete';
  /** The keyboard shortcut in the tree, shown beside the label. */
  shortcut?: string;
  danger?: boolean;
  isDisabled?: boolean;
}

export interface ActionContext {
  /** The user may change the item (and create inside it). */
  canChange: boolean;
  /** The user may change the item's container (reordering is a change of the container). */
  canChangeParent: boolean;
  /** The user may rename and delete sites themselves (admins only; inside a site the access levels count). */
  canManageSites: boolean;
  /** Where a section or link stands among its container's navigation entries. */
  navigation?: { index: number; count: number };
  /** Leave out "Open" (the item's screen is already showing). */
  withoutOpen?: boolean;
  /** A page's workflow transitions the user may take now (when loaded). */
  transitions?: TransitionsResponse['transitions'];
}

/** What a container can hold, in menu order. */
function creatableIn(item: ExplorerItem): CreatableKind[] {
  switch (item.kind) {
    case 'site':
    case 'section':
      return ['section', 'sectionlink', 'externallink', 'folder', 'page'];
    case 'folder':
      return ['folder', 'page'];
    case 'library':
    case 'assetfolder':
      return ['assetfolder'];
    default:
      return [];
  }
}

const CREATE_LABEL: Record<CreatableKind, string> = {
  section: 'New section…',
  sectionlink: 'New section link…',
  externallink: 'New external link…',
  folder: 'New folder…',
  page: 'New page…',
  assetfolder: 'New folder…',
};

/**
 * The actions offered for an item. Nothing the service would refuse is offered: no changes for a user who may not
 * change the item, no move, rename or delete of landing pages or the asset library, no move of sites, and no rename
 * or delete of a site but for admins.
 */
export function actionsFor(item: ExplorerItem, ctx: ActionContext): ActionEntry[] {
  const out: ActionEntry[] = [];
  // A page's main action is editing it: its screen is the page editor.
  if (!ctx.withoutOpen) {
    out.push({ id: 'open', label: item.kind === 'page' ? 'Edit' : 'Open', group: 'open', shortcut: 'Enter' });
  }
  if (item.kind === 'page') {
    for (const t of sortTransitions(ctx.transitions ?? [])) {
      // "Edit" is the page's main action here: the Edit transition (Public → Quick Edit) says what it does.
      const label = t.name === 'Edit' ? 'Quick edit (reopen the live page)' : transitionLabel(t.name);
      out.push({ id: `transition-${t.name}`, label, group: 'workflow' });
    }
  }
  if (ctx.canChange) {
    for (const kind of creatableIn(item)) out.push({ id: `new-${kind}`, label: CREATE_LABEL[kind], group: 'create' });
  }
  const ownChangesAllowed =
    ctx.canChange && item.kind !== 'library' && !item.isLandingPage && (item.kind !== 'site' || ctx.canManageSites);
  if (ownChangesAllowed) out.push({ id: 'rename', label: 'Rename…', group: 'change', shortcut: 'F2' });
  if (ownChangesAllowed && isMovable(item)) out.push({ id: 'move', label: 'Move to…', group: 'change' });
  if (ctx.canChangeParent && isNavigationEntry(item.kind) && ctx.navigation) {
    const { index, count } = ctx.navigation;
    out.push(
      { id: 'move-up', label: 'Move up', group: 'change', shortcut: 'Alt+↑', isDisabled: index <= 0 },
      { id: 'move-down', label: 'Move down', group: 'change', shortcut: 'Alt+↓', isDisabled: index >= count - 1 },
    );
  }
  if (ownChangesAllowed) out.push({ id: 'delete', label: 'Delete…', group: 'delete', shortcut: 'Del', danger: true });
  return out;
}
