import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover, type Key } from 'react-aria-components';
import { Button } from '../../../components/ui/button';
import { ChevronDownIcon, MoveIcon, PencilIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons';
import type { ExplorerItem } from '../../../lib/tree/items';
import type { ItemAction } from '../lib/item-actions';
import { BulkWorkflowMenu } from './bulk-workflow-menu';
import { useExplorer } from './explorer-context';
import { useItemCommands } from './use-item-commands';

/**
 * The actions of the item a screen shows: "New" (a menu of what the container can hold), Rename, Move to,
 * Delete. Only what the user may do is offered; a Viewer sees no toolbar at all.
 */
export function ItemToolbar({ item }: { item: ExplorerItem }) {
  const { actionsOf, perform } = useItemCommands();
  const { role } = useExplorer();
  const actions = actionsOf(item, { withoutOpen: true });
  // Pages live in sites, sections and folders: their workflow can be taken for everything below at once.
  const holdsPages = item.kind === 'site' || item.kind === 'section' || item.kind === 'folder';
  const creates = actions.filter((a) => a.group === 'create');
  const has = (id: ItemAction) => actions.some((a) => a.id === id);
  if (actions.length === 0) return null;
  return (
    <div className="item-toolbar" role="toolbar" aria-label={`Actions for ${item.name}`}>
      {creates.length > 0 && (
        <MenuTrigger>
          <AriaButton className="btn btn--primary btn--md">
            <PlusIcon /> New <ChevronDownIcon />
          </AriaButton>
          <Popover className="popover" placement="bottom start" offset={4}>
            <Menu
              className="menu"
              aria-label={`New item in ${item.name}`}
              items={creates}
              onAction={(key: Key) => perform(item, String(key) as ItemAction)}
            >
              {(a) => (
                <MenuItem id={a.id} className="menu__item">
                  {a.label
                    .replace(/^New /, '')
                    .replace(/…$/, '')
                    .replace(/^./, (c) => c.toUpperCase())}
                </MenuItem>
              )}
            </Menu>
          </Popover>
        </MenuTrigger>
      )}
      {holdsPages && creates.length > 0 && <BulkWorkflowMenu item={item} role={role} />}
      {has('rename') && (
        <Button onPress={() => perform(item, 'rename')}>
          <PencilIcon /> Rename
        </Button>
      )}
      {has('move') && (
        <Button onPress={() => perform(item, 'move')}>
          <MoveIcon /> Move to…
        </Button>
      )}
      {has('delete') && (
        <Button variant="quiet" className="item-toolbar__delete" onPress={() => perform(item, 'delete')}>
          <TrashIcon /> Delete
        </Button>
      )}
    </div>
  );
}
