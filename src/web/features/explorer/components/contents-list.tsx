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
import type { ChildSummary, Folder } from '../../../../shared/api/folders';
import { Button } from '../../../components/ui/button';
import { ArrowDownIcon, ArrowUpIcon, ChevronDownIcon, MoreIcon } from '../../../components/ui/icons';
import { EmptyState } from '../../../components/ui/status';
import { WorkflowBadge } from '../../../components/ui/workflow-badge';
import { ScheduleMark } from '../../../kit/workflow/schedule-control';
import { CheckedOutMark } from '../../../kit/workflow/workflow-status';
import { formatDateTime } from '../../../lib/format';
import { useFolderChildren } from '../../../lib/queries/folders';
import {
  capitalise,
  childrenOf,
  isNavigationEntry,
  KIND_LABEL,
  labelOf,
  secondaryNameOf,
  titlesOf,
  type ExplorerItem,
} from '../../../lib/tree/items';
import type { ItemAction } from '../lib/item-actions';
import { canChangeAnything, useExplorer } from './explorer-context';
import { KindIcon } from '../../../components/tree/kind-icon';
import { useItemCommands } from './use-item-commands';
import { usePageTransitions } from '../../../lib/queries/pages';

/** Rows shown at first; more on request (a folder may hold ten thousand items). */
const PAGE_SIZE = 100;

/** The columns a table can be sorted by; null keeps the container's own order (navigation, then by name). */
type SortColumn = 'title' | 'kind' | 'state' | 'modified';
interface Sort {
  column: SortColumn;
  direction: 'ascending' | 'descending';
}

const COLUMN_LABEL: Record<SortColumn, string> = {
  title: 'Title',
  kind: 'Kind',
  state: 'State',
  modified: 'Last modified',
};

/** Workflow states in the order a page goes through them. */
const STATE_ORDER = ['Draft', 'Review', 'Public', 'Quick Edit', 'Archive'];

interface Row {
  item: ExplorerItem;
  summary?: ChildSummary;
}

const kindOf = (item: ExplorerItem) => (item.isLandingPage ? 'Landing page' : capitalise(KIND_LABEL[item.kind]));
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Compares two rows by a column; rows without a value (a folder's state) come last either way. */
function compareBy(column: SortColumn, a: Row, b: Row): number {
  switch (column) {
    case 'title':
      return collator.compare(labelOf(a.item), labelOf(b.item));
    case 'kind':
      return collator.compare(kindOf(a.item), kindOf(b.item));
    case 'state': {
      const rank = (r: Row) => {
        const state = r.summary?.workflowState;
        return state === undefined ? -1 : STATE_ORDER.indexOf(state) + 1 || STATE_ORDER.length + 1;
      };
      return rank(a) - rank(b);
    }
    case 'modified':
      // The service writes UTC timestamps of one fixed form: they sort as text.
      return (a.summary?.lastModified ?? '').localeCompare(b.summary?.lastModified ?? '');
  }
}

function sortRows(rows: readonly Row[], sort: Sort | null): Row[] {
  if (!sort) return [...rows];
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const missing = (r: Row) =>
    (sort.column === 'state' && r.summary?.workflowState === undefined) ||
    (sort.column === 'modified' && r.summary === undefined);
  return [...rows].sort((a, b) => {
    const ma = missing(a);
    const mb = missing(b);
    if (ma !== mb) return ma ? 1 : -1;
    return sign * compareBy(sort.column, a, b) || collator.compare(labelOf(a.item), labelOf(b.item));
  });
}

/** The actions menu of one row (computed when it opens). */
function RowMenu({ item }: { item: ExplorerItem }) {
  const { actionsOf, perform } = useItemCommands();
  return (
    <MenuTrigger>
      <AriaButton aria-label={`Actions for ${labelOf(item)}`} className="btn btn--quiet btn--sm btn--icon">
        <MoreIcon />
      </AriaButton>
      <Popover className="popover item-menu" placement="bottom end" offset={4}>
        <RowMenuItems item={item} actionsOf={actionsOf} onAction={(a) => perform(item, a)} />
      </Popover>
    </MenuTrigger>
  );
}

function RowMenuItems({
  item,
  actionsOf,
  onAction,
}: {
  item: ExplorerItem;
  actionsOf: ReturnType<typeof useItemCommands>['actionsOf'];
  onAction: (a: ItemAction) => void;
}) {
  // A page's workflow transitions load as its menu opens (the menu grows by them).
  usePageTransitions(item.path, { enabled: item.kind === 'page' });
  const actions = actionsOf(item);
  return (
    <Menu
      aria-label={`Actions for ${labelOf(item)}`}
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

/** A column header that sorts the table: ascending, then descending, then back to the container's own order. */
function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: SortColumn;
  sort: Sort | null;
  onSort: (sort: Sort | null) => void;
}) {
  const active = sort?.column === column ? sort.direction : undefined;
  const next = (): Sort | null =>
    active === undefined
      ? { column, direction: 'ascending' }
      : active === 'ascending'
        ? { column, direction: 'descending' }
        : null;
  return (
    <th scope="col" aria-sort={active ?? 'none'}>
      <AriaButton className="sort-button" onPress={() => onSort(next())}>
        {COLUMN_LABEL[column]}
        <span className="sort-button__mark" data-direction={active} aria-hidden="true">
          <ChevronDownIcon />
        </span>
      </AriaButton>
    </th>
  );
}

/** When and by whom an item last changed. */
function Modified({ summary }: { summary?: ChildSummary }) {
  if (!summary) return <span className="table__muted">—</span>;
  return (
    <span className="contents-table__modified">
      <time dateTime={summary.lastModified.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')}>
        {formatDateTime(summary.lastModified)}
      </time>
      {summary.lastModifiedBy && <span className="table__muted">by {summary.lastModifiedBy}</span>}
    </span>
  );
}

/** What a container with nothing inside offers instead: the items the user may create in it. */
function EmptyContents({ item }: { item: ExplorerItem }) {
  const { actionsOf, perform } = useItemCommands();
  const creates = actionsOf(item, { withoutOpen: true }).filter((a) => a.group === 'create');
  const inLibrary = item.kind === 'assetfolder' || item.kind === 'library';
  return (
    <EmptyState
      title={inLibrary ? 'No folders here yet' : 'Nothing here yet'}
      actions={creates.map((a, i) => (
        <Button key={a.id} variant={i === 0 ? 'primary' : 'secondary'} size="sm" onPress={() => perform(item, a.id)}>
          {a.label.replace(/…$/, '')}
        </Button>
      ))}
    >
      {inLibrary
        ? `“${labelOf(item)}” holds no folders.`
        : `“${labelOf(item)}” holds no pages, folders${item.kind === 'folder' ? '' : ' or sections'} yet.`}
      {creates.length === 0 && ' You may not add anything here.'}
    </EmptyState>
  );
}

/**
 * What a site, section, folder or asset folder holds, as a table: title (the name beside it when it differs),
 * kind, workflow state, last modified and by whom. In the container's own order — navigation entries in
 * navigation order (with move up/down for whoever may reorder them), then folders and pages by name — or sorted
 * by a column. Each title opens the item.
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
  const { hrefOf, preloadScreenOf, role } = useExplorer();
  const { perform, isReordering } = useItemCommands();
  const summaries = useFolderChildren(item.path);
  const [sort, setSort] = useState<Sort | null>(null);
  const [shown, setShown] = useState(PAGE_SIZE);

  const rows = useMemo(() => {
    const byName = new Map(summaries.data?.items.map((s) => [s.name, s]));
    const titles = summaries.data ? titlesOf(summaries.data) : undefined;
    return childrenOf(item, folder, titles).map((child): Row => ({ item: child, summary: byName.get(child.name) }));
  }, [item, folder, summaries.data]);
  const sorted = useMemo(() => sortRows(rows, sort), [rows, sort]);
  const navigationCount = rows.filter((r) => isNavigationEntry(r.item.kind)).length;
  const showsOrderButtons = canReorder && sort === null;
  // What "unsorted" means here: a site's or section's navigation order, or a folder's names.
  const ownOrder = item.kind === 'site' || item.kind === 'section' ? 'Navigation order' : 'By name';

  if (rows.length === 0) return <EmptyContents item={item} />;

  return (
    <>
      <div className="table-wrap">
        <table className="table contents-table">
          <caption className="visually-hidden">
            Contents of {labelOf(item)}: {rows.length} {rows.length === 1 ? 'item' : 'items'},{' '}
            {sort
              ? `sorted by ${COLUMN_LABEL[sort.column].toLowerCase()}, ${sort.direction}`
              : navigationCount > 0
                ? 'in navigation order, then by name'
                : 'by name'}
          </caption>
          <thead>
            <tr>
              <SortHeader column="title" sort={sort} onSort={setSort} />
              <SortHeader column="kind" sort={sort} onSort={setSort} />
              <SortHeader column="state" sort={sort} onSort={setSort} />
              <SortHeader column="modified" sort={sort} onSort={setSort} />
              <th scope="col" className="table__actions">
                {sort ? (
                  <AriaButton className="sort-button sort-button--reset" onPress={() => setSort(null)}>
                    {ownOrder}
                  </AriaButton>
                ) : (
                  <span className="visually-hidden">Actions</span>
                )}
              </th>
            </tr>
          </thead>
          <tbody>
            {sorted.slice(0, shown).map(({ item: child, summary }, index) => {
              const secondary = secondaryNameOf(child);
              return (
                <tr key={child.path}>
                  <th scope="row" className="contents-table__name">
                    <Link
                      href={hrefOf(child)}
                      className="contents-table__link"
                      onHoverStart={() => preloadScreenOf(child)}
                      onFocus={() => preloadScreenOf(child)}
                    >
                      <KindIcon item={child} />
                      <span className="contents-table__title">{labelOf(child)}</span>
                    </Link>
                    {secondary && <span className="contents-table__secondary">{secondary}</span>}
                  </th>
                  <td className="table__muted">{kindOf(child)}</td>
                  <td>
                    {summary?.workflowState ? (
                      <span className="contents-table__state">
                        <WorkflowBadge state={summary.workflowState} />
                        {summary.checkedOutUser && <CheckedOutMark user={summary.checkedOutUser} />}
                        <ScheduleMark schedule={summary} />
                      </span>
                    ) : (
                      <span className="table__muted">—</span>
                    )}
                  </td>
                  <td>
                    <Modified summary={summary} />
                  </td>
                  <td className="table__actions">
                    <span className="contents-table__actions">
                      {showsOrderButtons && isNavigationEntry(child.kind) && (
                        <>
                          <Button
                            variant="quiet"
                            size="sm"
                            iconOnly
                            aria-label={`Move ${labelOf(child)} up`}
                            isDisabled={index === 0 || isReordering}
                            onPress={() => perform(child, 'move-up')}
                          >
                            <ArrowUpIcon />
                          </Button>
                          <Button
                            variant="quiet"
                            size="sm"
                            iconOnly
                            aria-label={`Move ${labelOf(child)} down`}
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
              );
            })}
          </tbody>
        </table>
      </div>
      {rows.length > shown && (
        <p className="contents-more">
          <span>
            Showing {shown} of {rows.length}.
          </span>
          <Button size="sm" onPress={() => setShown((n) => n + PAGE_SIZE)}>
            Show {Math.min(PAGE_SIZE, rows.length - shown)} more
          </Button>
        </p>
      )}
    </>
  );
}
