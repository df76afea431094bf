import { useMemo, useState } from 'react';
import {
  Button as AriaButton,
  Keyboard,
  Link,
  Menu,
  MenuItem,
  MenuTrigger,
  Popover,
  Text,
  type Key,
} from 'react-aria-components';
import type { Folder } from '../../../../shared/api/folders';
import { Button } from '../../../components/ui/button';
import { ArrowDownIcon, ArrowUpIcon, MoreIcon } from '../../../components/ui/icons';
import { EmptyState } from '../../../components/ui/status';
import { childrenOf, isNavigationEntry, KIND_LABEL, type ExplorerItem } from '../../../lib/tree/items';
import type { ItemAction } from '../lib/item-actions';
import { canChangeAnything, useExplorer } from './explorer-context';
import { KindIcon } from '../../../components/tree/kind-icon';
import { useItemCommands } from './use-item-commands';

/** Rows shown at first; more on request (a folder may hold ten thousand items). */
const PAGE_SIZE = 100;

/** The actions menu of one row (computed when it opens). */
function RowMenu({ item }: { item: ExplorerItem }) {
  const { actionsOf, perform } = useItemCommands();
  return (
    <MenuTrigger>
      <AriaButton aria-label={`Actions for ${item.name}`} className="btn btn--quiet btn--sm btn--icon">
        <MoreIcon />
      </AriaButton>
      <Popover className="popover item-menu" placement="bottom end" offset={4}>
        <RowMenuItems item={item} actions={actionsOf(item)} onAction={(a) => perform(item, a)} />
      </Popover>
    </MenuTrigger>
  );
}

function RowMenuItems({
  item,
  actions,
  onAction,
}: {
  item: ExplorerItem;
  actions: ReturnType<ReturnType<typeof useItemCommands>['actionsOf']>;
  onAction: (a: ItemAction) => void;
}) {
  return (
    <Menu
      aria-label={`Actions for ${item.name}`}
      className="menu"
      items={actions}
      disabledKeys={actions.filter((a) => a.isDisabled).map((a) => a.id)}
      onAction={(key: Key) => onAction(String(key) as ItemAction)}
    >
      {(a) => (
        <MenuItem id={a.id} textValue={a.label} className={a.danger ? 'menu__item menu__item--danger' : 'menu__item'}>
          <Text slot="label" className="menu__label">
            {a.label}
          </Text>
          {a.shortcut && <Keyboard className="menu__shortcut">{a.shortcut}</Keyboard>}
        </MenuItem>
      )}
    </Menu>
  );
}

/**
 * What a site, section, folder or asset folder holds: navigation entries in navigation order (with move up/down
 * for whoever may reorder them), then folders and pages by name. Each name opens the item.
 */
export function ContentsList({
  item,
  folder,
  canReorder,
}: {
  item: ExplorerItem;
  folder: Folder;
  canReorder: boolean;
}) {
  const { hrefOf, role } = useExplorer();
  const { perform, isReordering } = useItemCommands();
  const children = useMemo(() => childrenOf(item, folder), [item, folder]);
  const [shown, setShown] = useState(PAGE_SIZE);
  const navigationCount = children.filter((c) => isNavigationEntry(c.kind)).length;

  if (children.length === 0) {
    if (item.kind === 'assetfolder' || item.kind === 'library') {
      return <p className="card__muted">No folders inside “{item.name}”.</p>;
    }
    return <EmptyState title="Nothing here yet">“{item.name}” holds no items yet.</EmptyState>;
  }

  return (
    <>
      <div className="table-wrap">
        <table className="table contents-table">
          <caption className="visually-hidden">
            Contents of {item.name}: {children.length} {children.length === 1 ? 'item' : 'items'}
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col" className="table__actions">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {children.slice(0, shown).map((child, index) => (
              <tr key={child.path}>
                <th scope="row" className="contents-table__name">
                  <Link href={hrefOf(child)} className="contents-table__link">
                    <KindIcon item={child} />
                    <span>{child.name}</span>
                  </Link>
                </th>
                <td className="table__muted">
                  {child.isLandingPage ? 'Landing page' : KIND_LABEL[child.kind].replace(/^./, (c) => c.toUpperCase())}
                </td>
                <td className="table__actions">
                  <span className="contents-table__actions">
                    {canReorder && isNavigationEntry(child.kind) && (
                      <>
                        <Button
                          variant="quiet"
                          size="sm"
                          iconOnly
                          aria-label={`Move ${child.name} up`}
                          isDisabled={index === 0 || isReordering}
                          onPress={() => perform(child, 'move-up')}
                        >
                          <ArrowUpIcon />
                        </Button>
                        <Button
                          variant="quiet"
                          size="sm"
                          iconOnly
                          aria-label={`Move ${child.name} down`}
                          isDisabled={index >= navigationCount - 1 || isReordering}
                          onPress={() => perform(child, 'move-down')}
                        >
                          <ArrowDownIcon />
                        </Button>
                      </>
                    )}
                    {canChangeAnything(role) && <RowMenu item={child} />}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {children.length > shown && (
        <p className="contents-more">
          <span>
            Showing {shown} of {children.length}.
          </span>
          <Button size="sm" onPress={() => setShown((n) => n + PAGE_SIZE)}>
            Show {Math.min(PAGE_SIZE, children.length - shown)} more
          </Button>
        </p>
      )}
    </>
  );
}
