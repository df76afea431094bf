import { Fragment, type RefObject } from 'react';
import { Keyboard, Menu, MenuItem, MenuSection, Popover, Separator, Text, type Key } from 'react-aria-components';
import type { ActionEntry, ItemAction } from '../lib/item-actions';

const GROUP_LABEL: Record<ActionEntry['group'], string> = {
  open: 'Open',
  create: 'Create',
  workflow: 'Workflow',
  change: 'Change',
  delete: 'Delete',
};

/**
 * The menu of an item's actions, grouped with separators, shortcuts beside the labels. Shown at the pointer for a
 * right click, at the row for the Menu key or Shift+F10, and under the "…" button.
 */
export function ItemMenuPopover({
  label,
  actions,
  triggerRef,
  isOpen,
  onClose,
  onAction,
  placement = 'bottom start',
}: {
  /** Accessible name of the menu, e.g. "Actions for news, section". */
  label: string;
  actions: readonly ActionEntry[];
  triggerRef: RefObject<Element | null>;
  isOpen: boolean;
  onClose: () => void;
  onAction: (action: ItemAction) => void;
  placement?: 'bottom start' | 'bottom end' | 'right top';
}) {
  const groups = (['open', 'create', 'workflow', 'change', 'delete'] as const)
    .map((group) => ({ group, entries: actions.filter((a) => a.group === group) }))
    .filter((g) => g.entries.length > 0);
  return (
    <Popover
      triggerRef={triggerRef}
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      placement={placement}
      offset={2}
      className="popover item-menu"
    >
      <Menu
        aria-label={label}
        className="menu"
        autoFocus="first"
        disabledKeys={actions.filter((a) => a.isDisabled).map((a) => a.id)}
        onAction={(key: Key) => onAction(String(key) as ItemAction)}
        onClose={onClose}
      >
        {groups.map(({ group, entries }, i) => (
          <Fragment key={group}>
            {i > 0 && <Separator className="menu__separator" />}
            <MenuSection aria-label={GROUP_LABEL[group]} className="menu__section">
              {entries.map((a) => (
                <MenuItem
                  key={a.id}
                  id={a.id}
                  textValue={a.label}
                  className={a.danger ? 'menu__item menu__item--danger' : 'menu__item'}
                >
                  <Text slot="label" className="menu__label">
                    {a.label}
                  </Text>
                  {a.shortcut && <Keyboard className="menu__shortcut">{a.shortcut}</Keyboard>}
                </MenuItem>
              ))}
            </MenuSection>
          </Fragment>
        ))}
      </Menu>
    </Popover>
  );
}
