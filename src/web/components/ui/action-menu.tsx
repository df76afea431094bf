import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover, type Key } from 'react-aria-components';
import { MoreIcon } from './icons';

export interface ActionMenuItem<K extends string> {
  id: K;
  label: string;
  /** Destructive actions are styled as such. */
  danger?: boolean;
  isDisabled?: boolean;
}

/** A "…" button opening a menu of actions (react-aria: arrow keys, type-ahead, Escape, focus return). */
export function ActionMenu<K extends string>({
  label,
  items,
  onAction,
}: {
  /** Accessible name of the trigger, e.g. "Actions for alice". */
  label: string;
  items: readonly ActionMenuItem<K>[];
  onAction: (id: K) => void;
}) {
  const disabledKeys = items.filter((i) => i.isDisabled).map((i) => i.id);
  return (
    <MenuTrigger>
      <AriaButton aria-label={label} className="btn btn--quiet btn--sm btn--icon">
        <MoreIcon />
      </AriaButton>
      <Popover className="popover" placement="bottom end" offset={4}>
        <Menu
          className="menu"
          items={items}
          disabledKeys={disabledKeys}
          onAction={(key: Key) => onAction(String(key) as K)}
        >
          {(item) => (
            <MenuItem id={item.id} className={item.danger ? 'menu__item menu__item--danger' : 'menu__item'}>
              {item.label}
            </MenuItem>
          )}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
