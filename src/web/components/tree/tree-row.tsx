import type { ReactNode } from 'react';
import { Button as AriaButton } from 'react-aria-components';
import { labelOf, secondaryNameOf, type ExplorerItem } from '../../lib/tree/items';
import { AlertIcon, ChevronRightIcon } from '../ui/icons';
import { Spinner } from '../ui/spinner';
import { KindIcon } from './kind-icon';
import './tree.css';

/** How a row's container listing stands (`unknown` for leaves and never-read containers). */
export type RowStatus = 'loaded' | 'loading' | 'error' | 'unknown';

/**
 * The content of one row of a tree of sites or the asset library: the chevron (react-aria's expand button), the
 * kind icon, the title with the name as secondary text (just the name when the item has no title of its own), and
 * a loading or error mark. Render it inside react-aria's `TreeItemContent`, passing its
 * render props. `beforeIcon` (a drag handle), `name` (an inline rename field) and `after` (a "…" button) let the
 * explorer add what only its tree has.
 */
export function TreeRowContent({
  item,
  hasChildItems,
  isExpanded,
  level,
  status,
  errorText,
  beforeIcon,
  name,
  after,
}: {
  item: ExplorerItem;
  hasChildItems: boolean;
  isExpanded: boolean;
  level: number;
  status: RowStatus;
  /** What failed when `status` is `error` (shown as the mark's tooltip). */
  errorText?: string;
  beforeIcon?: ReactNode;
  name?: ReactNode;
  after?: ReactNode;
}) {
  return (
    <div className="xtree-row" style={{ paddingInlineStart: `calc(${level - 1} * var(--tree-indent))` }}>
      {hasChildItems ? (
        <AriaButton slot="chevron" className="xtree-row__chevron" data-expanded={isExpanded || undefined}>
          <ChevronRightIcon />
        </AriaButton>
      ) : (
        <span className="xtree-row__chevron" aria-hidden="true" />
      )}
      {beforeIcon}
      <KindIcon item={item} className="xtree-row__icon" />
      {name ?? (
        <span className="xtree-row__name">
          {labelOf(item)}
          {secondaryNameOf(item) && <span className="xtree-row__secondary">{secondaryNameOf(item)}</span>}
        </span>
      )}
      {status === 'loading' && isExpanded && (
        <span className="xtree-row__state">
          <Spinner />
          <span className="visually-hidden">Loading</span>
        </span>
      )}
      {status === 'error' && (
        <span className="xtree-row__state xtree-row__state--error" title={errorText}>
          <AlertIcon />
          <span className="visually-hidden">Could not load the contents</span>
        </span>
      )}
      {after}
    </div>
  );
}
