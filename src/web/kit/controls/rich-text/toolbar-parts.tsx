import type { Editor } from '@tiptap/react';
import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  Menu,
  MenuItem,
  MenuTrigger,
  Popover,
  ToggleButton,
  type Key,
} from 'react-aria-components';
import { CheckIcon, ChevronDownIcon, MoreIcon, TableIcon } from '../../../components/ui/icons';

/* The rich text toolbar's buttons and its two menus ("More formatting" and "Table"). */

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
/** The modifier key as the person's keyboard names it, for shortcut hints. */
export const MOD = isMac ? '⌘' : 'Ctrl+';
/** The Shift key as the person's keyboard names it. */
export const SHIFT = isMac ? '⇧' : 'Shift+';

/** A toolbar button: a toggle when `isSelected` is given, with its shortcut in the tooltip. */
export function ToolButton({
  label,
  shortcut,
  keys,
  isSelected,
  isDisabled,
  secondary,
  onPress,
  children,
}: {
  label: string;
  shortcut?: string;
  /** For aria-keyshortcuts ("Control+B"). */
  keys?: string;
  isSelected?: boolean;
  isDisabled?: boolean;
  /** Moves into the "More formatting" menu when the editor is narrow. */
  secondary?: boolean;
  onPress: () => void;
  children: ReactNode;
}) {
  const title = shortcut ? `${label} (${shortcut})` : label;
  const className = secondary ? 'rich-text__tool rich-text__tool--secondary' : 'rich-text__tool';
  if (isSelected === undefined) {
    return (
      <AriaButton
        className={className}
        aria-label={label}
        aria-keyshortcuts={keys}
        data-title={title}
        isDisabled={isDisabled}
        onPress={onPress}
      >
        {children}
      </AriaButton>
    );
  }
  return (
    <ToggleButton
      className={className}
      aria-label={label}
      aria-keyshortcuts={keys}
      data-title={title}
      isSelected={isSelected}
      isDisabled={isDisabled}
      onChange={onPress}
    >
      {children}
    </ToggleButton>
  );
}

/** An entry of the "More formatting" menu: its name, whether it is on at the cursor, and its shortcut. */
function MoreItem({ label, shortcut, isOn }: { label: string; shortcut?: string; isOn?: boolean }) {
  return (
    <span className="rich-text__more-item">
      <span className="rich-text__more-check" aria-hidden="true">
        {isOn ? <CheckIcon /> : null}
      </span>
      <span>
        {label}
        {isOn && <span className="visually-hidden"> (on)</span>}
      </span>
      {shortcut && <kbd className="rich-text__more-keys">{shortcut}</kbd>}
    </span>
  );
}

/** The "More formatting" menu: strikethrough, inline code, quote and line (the narrow editor's home for them). */
export function MoreFormattingMenu({
  editor,
  isOn,
}: {
  editor: Editor;
  isOn: { strike: boolean; code: boolean; quote: boolean };
}) {
  const chain = () => editor.chain().focus();
  const moreActions = {
    strike: () => chain().toggleStrike().run(),
    code: () => chain().toggleCode().run(),
    quote: () => chain().toggleBlockquote().run(),
    rule: () => chain().setHorizontalRule().run(),
  };
  return (
    <MenuTrigger>
      <AriaButton className="rich-text__tool rich-text__more" aria-label="More formatting" data-title="More formatting">
        <MoreIcon />
      </AriaButton>
      <Popover className="popover" offset={4}>
        <Menu className="menu" onAction={(key: Key) => moreActions[String(key) as keyof typeof moreActions]()}>
          <MenuItem id="strike" className="menu__item" textValue="Strikethrough">
            <MoreItem label="Strikethrough" shortcut={`${MOD}${SHIFT}S`} isOn={isOn.strike} />
          </MenuItem>
          <MenuItem id="code" className="menu__item" textValue="Inline code">
            <MoreItem label="Inline code" shortcut={`${MOD}E`} isOn={isOn.code} />
          </MenuItem>
          <MenuItem id="quote" className="menu__item" textValue="Quote">
            <MoreItem label="Quote" shortcut={`${MOD}${SHIFT}B`} isOn={isOn.quote} />
          </MenuItem>
          <MenuItem id="rule" className="menu__item" textValue="Horizontal line">
            <MoreItem label="Horizontal line" />
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

/** The "Table" menu: insert a table, or change the one the cursor is in. */
export function TableMenu({ editor, isInTable }: { editor: Editor; isInTable: boolean }) {
  const chain = () => editor.chain().focus();
  const tableAction = (key: Key) => {
    const c = chain();
    switch (key) {
      case 'rowBefore':
        return c.addRowBefore().run();
      case 'rowAfter':
        return c.addRowAfter().run();
      case 'colBefore':
        return c.addColumnBefore().run();
      case 'colAfter':
        return c.addColumnAfter().run();
      case 'deleteRow':
        return c.deleteRow().run();
      case 'deleteCol':
        return c.deleteColumn().run();
      case 'headerRow':
        return c.toggleHeaderRow().run();
      case 'deleteTable':
        return c.deleteTable().run();
      case 'insert':
        return c.insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run();
    }
  };

  return (
    <MenuTrigger>
      <AriaButton className="rich-text__tool" aria-label="Table" data-title="Table">
        <TableIcon />
        <ChevronDownIcon className="rich-text__tool-chevron" />
      </AriaButton>
      <Popover className="popover" offset={4}>
        <Menu
          className="menu"
          onAction={tableAction}
          disabledKeys={
            isInTable
              ? ['insert']
              : ['rowBefore', 'rowAfter', 'colBefore', 'colAfter', 'deleteRow', 'deleteCol', 'headerRow', 'deleteTable']
          }
        >
          <MenuItem id="insert" className="menu__item">
            Insert a table
          </MenuItem>
          <MenuItem id="rowBefore" className="menu__item">
            Add a row above
          </MenuItem>
          <MenuItem id="rowAfter" className="menu__item">
            Add a row below
          </MenuItem>
          <MenuItem id="colBefore" className="menu__item">
            Add a column before
          </MenuItem>
          <MenuItem id="colAfter" className="menu__item">
            Add a column after
          </MenuItem>
          <MenuItem id="headerRow" className="menu__item">
            Header row on or off
          </MenuItem>
          <MenuItem id="deleteRow" className="menu__item menu__item--danger">
            Delete the row
          </MenuItem>
          <MenuItem id="deleteCol" className="menu__item menu__item--danger">
            Delete the column
          </MenuItem>
          <MenuItem id="deleteTable" className="menu__item menu__item--danger">
            Delete the table
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
