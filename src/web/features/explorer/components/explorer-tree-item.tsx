import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button as AriaButton, TreeItemContent } from 'react-aria-components';
import { ItemName } from '../../../../shared/api/common';
import { TreeRowContent } from '../../../components/tree/tree-row';
import { GripIcon, MoreIcon } from '../../../components/ui/icons';
import { toast } from '../../../components/ui/toast';
import { TreeItem } from '../../../components/ui/tree';
import { errorMessage, fieldSentence } from '../../../lib/errors';
import { accessibleNameOf, labelOf, type ExplorerItem } from '../../../lib/tree/items';
import type { TreeNode } from '../../../lib/tree/tree-nodes';

/** One row of the tree: chevron, kind icon, name (or the rename field), loading or error mark, "…" button. */
export function ExplorerTreeItem({
  node,
  canDrag,
  showMenuButton,
  isRenaming,
  onRenameCommit,
  onRenameCancel,
  onMenuButton,
  onContextMenu,
  children,
}: {
  node: TreeNode;
  canDrag: boolean;
  showMenuButton: boolean;
  isRenaming: boolean;
  onRenameCommit: (name: string) => void;
  onRenameCancel: () => void;
  onMenuButton: (element: Element) => void;
  onContextMenu: (x: number, y: number) => void;
  children: ReactNode;
}) {
  const { item } = node;
  return (
    <TreeItem<TreeNode>
      id={node.id}
      value={node}
      textValue={labelOf(item)}
      // The label replaces the row's content for assistive technology, so a failed listing is said here too.
      aria-label={`${accessibleNameOf(item)}${node.status === 'error' ? ', could not load its contents' : ''}`}
      hasChildItems={node.hasChildren}
      className="xtree-item"
      data-path={node.id}
      data-kind={item.kind}
      onContextMenu={(event) => {
        event.preventDefault();
        onContextMenu(event.clientX, event.clientY);
      }}
      onDragStartCapture={(event) => {
        // Sites, the asset library and landing pages stay where they are (react-aria then starts no drag).
        if (!canDrag) event.preventDefault();
      }}
    >
      <TreeItemContent>
        {({ hasChildItems, isExpanded, level, allowsDragging }) => (
          <TreeRowContent
            item={item}
            hasChildItems={hasChildItems}
            isExpanded={isExpanded}
            level={level}
            status={node.status}
            errorText={
              node.status === 'error'
                ? `Could not load the contents: ${errorMessage(node.error)} Collapse and open again to retry.`
                : undefined
            }
            beforeIcon={
              allowsDragging && (
                // Not a Tab stop in every row: keyboard users move items with "Move to…" (or Alt+↑/↓ to reorder).
                <AriaButton slot="drag" className="xtree-row__drag" excludeFromTabOrder isDisabled={!canDrag}>
                  <GripIcon />
                </AriaButton>
              )
            }
            name={
              isRenaming ? <RenameField item={item} onCommit={onRenameCommit} onCancel={onRenameCancel} /> : undefined
            }
            after={
              showMenuButton &&
              !isRenaming && (
                <AriaButton
                  className="xtree-row__more"
                  aria-label={`Actions for ${item.name}`}
                  aria-haspopup="menu"
                  excludeFromTabOrder
                  onPress={(e) => onMenuButton(e.target)}
                >
                  <MoreIcon />
                </AriaButton>
              )
            }
          />
        )}
      </TreeItemContent>
      {children}
    </TreeItem>
  );
}

/** The inline name field of F2: Enter saves, Escape cancels, leaving the field saves a valid change. */
function RenameField({
  item,
  onCommit,
  onCancel,
}: {
  item: ExplorerItem;
  onCommit: (name: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(item.name);
  const inputRef = useRef<HTMLInputElement>(null);
  const done = useRef(false);
  const check = ItemName.safeParse(value);
  const problem = check.success ? null : fieldSentence(check.error.issues[0]?.message ?? 'is invalid', 'The name');

  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    // Select the name without its extension, as file managers do.
    const dot = item.name.lastIndexOf('.');
    input.setSelectionRange(0, dot > 0 ? dot : item.name.length);
  }, [item.name]);

  const finish = (save: boolean) => {
    if (done.current) return;
    done.current = true;
    if (save && !problem) onCommit(value);
    else onCancel();
  };

  return (
    <span className="xtree-rename">
      <input
        ref={inputRef}
        className="xtree-rename__input"
        aria-label={`New name for ${accessibleNameOf(item)}`}
        aria-invalid={problem ? true : undefined}
        title={problem ?? undefined}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        // Keys and clicks belong to the field, not to the tree around it.
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Enter') {
            e.preventDefault();
            if (problem) toast.error('This name cannot be used', problem);
            else finish(true);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            finish(false);
          }
        }}
        onPointerDown={(e) => e.stopPropagation()}
        onMouseDown={(e) => e.stopPropagation()}
        onClick={(e) => e.stopPropagation()}
        onBlur={() => finish(true)}
      />
    </span>
  );
}
