import { cloneElement, isValidElement, type DragEvent, type ReactElement, type Ref, type RefObject } from 'react';
import {
  Tree as AriaTree,
  TreeItem as AriaTreeItem,
  type TreeItemProps as AriaTreeItemProps,
  type TreeProps as AriaTreeProps,
  type TreeRenderProps,
  type TreeState,
} from 'react-aria-components';

/*
 * react-aria-components' Tree brings the behaviour of a tree — arrow keys, expand/collapse, Home/End, type-ahead,
 * selection, drag and drop, virtualisation — but renders the treegrid pattern (role="treegrid", rows with one
 * gridcell). Our rows hold a single cell, so the plain WAI-ARIA tree pattern describes them better: these wrappers
 * render role="tree" / role="treeitem" (with aria-level, aria-expanded, aria-selected, aria-posinset and
 * aria-setsize from react-aria) and drop the grid-only attributes, which ARIA does not allow on a tree.
 *
 * Two things stay react-aria's: while a drag is in progress it inserts its (visually hidden) drop-target rows, and
 * the row's single cell remains as a `display: contents` wrapper without a role.
 */

const GRID_ONLY_ATTRIBUTES = ['aria-rowcount', 'aria-colcount', 'aria-rowindex', 'aria-colindex'] as const;

function withoutGridAttributes<T extends object>(props: T): T {
  const out = { ...props } as Record<string, unknown>;
  for (const name of GRID_ONLY_ATTRIBUTES) delete out[name];
  return out as T;
}

type DivProps = React.HTMLAttributes<HTMLDivElement> & { ref?: Ref<HTMLDivElement> };

export type TreeProps<T> = Omit<AriaTreeProps<T>, 'render'> & {
  ref?: Ref<HTMLDivElement>;
  /** Receives react-aria's tree state (focused key, expansion), for keyboard commands of the caller. */
  stateRef?: RefObject<TreeState<unknown> | null>;
};

/** A WAI-ARIA tree (role="tree") on react-aria's Tree. */
export function Tree<T extends object>({ stateRef, ...props }: TreeProps<T>) {
  return (
    <AriaTree<T>
      {...props}
      render={(domProps: DivProps, renderProps: TreeRenderProps) => {
        if (stateRef) stateRef.current = renderProps.state;
        return <div {...withoutGridAttributes(domProps)} role="tree" />;
      }}
    />
  );
}

export type TreeItemProps<T> = Omit<AriaTreeItemProps<T>, 'render'> & {
  ref?: Ref<HTMLDivElement>;
  /** Runs before react-aria's drag start; `preventDefault()` keeps this item from being dragged. */
  onDragStartCapture?: (event: DragEvent<HTMLDivElement>) => void;
};

/** A tree item (role="treeitem"); put a `TreeItemContent` and, for children, a `Collection` inside. */
export function TreeItem<T extends object>({ onDragStartCapture, ...props }: TreeItemProps<T>) {
  return (
    <AriaTreeItem<T>
      {...props}
      render={({ children, ...domProps }: DivProps) => (
        <div {...withoutGridAttributes(domProps)} role="treeitem" onDragStartCapture={onDragStartCapture}>
          {isValidElement(children)
            ? cloneElement(children as ReactElement<Record<string, unknown>>, {
                role: undefined,
                'aria-colindex': undefined,
              })
            : children}
        </div>
      )}
    />
  );
}
