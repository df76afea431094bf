import {
  Cell,
  Collection,
  Column,
  Row,
  Table,
  TableBody,
  TableHeader,
  TableLayout,
  TableLoadMoreItem,
  Virtualizer,
  type Key,
  type SortDescriptor,
} from 'react-aria-components';
import type { AssetListSort, AssetMetadata } from '../../../../shared/api/assets';
import { AlertIcon, ArrowDownIcon, ArrowUpIcon } from '../../../components/ui/icons';
import { SelectionCheckbox } from '../../../components/ui/selection-checkbox';
import { Spinner } from '../../../components/ui/spinner';
import { WorkflowBadge } from '../../../components/ui/workflow-badge';
import { ScheduleMark } from '../../../kit/workflow/schedule-control';
import { CheckedOutMark } from '../../../kit/workflow/workflow-status';
import { AssetTypeIcon } from '../../../kit/type-icon';
import { assetPathOf, assetThumbnailUrl } from '../../../lib/assets';
import { formatBytes, formatDate, formatDateTime } from '../../../lib/format';
import type { AssetCollectionProps } from './asset-grid';
import { needsAltText, sizeOf, typeLabelOf } from './asset-facts';

const ROW_HEIGHT = 52;
const HEADING_HEIGHT = 40;

/** The list's sortable columns and the listing sort each one asks the server for. */
const COLUMN_SORT: Record<string, AssetListSort> = {
  name: 'name',
  type: 'type',
  state: 'state',
  size: 'size',
  modified: 'lastModifiedDate',
};

/**
 * The assets of a folder as a table: name (with a small thumbnail), type, state, size, last modified. Every
 * column sorts on the server (the whole folder, not the rows loaded so far). Virtualised and paged like the grid.
 */
export function AssetTable({
  sort,
  order,
  onSortChange,
  showFolder,
  ...props
}: AssetCollectionProps & {
  sort: AssetListSort;
  order: 'asc' | 'desc';
  onSortChange: (sort: AssetListSort, order: 'asc' | 'desc') => void;
  /** Assets of subfolders are listed too: show each one's folder. */
  showFolder: boolean;
}) {
  const byKey = new Map(props.assets.map((a) => [assetPathOf(a), a]));
  const column = Object.keys(COLUMN_SORT).find((c) => COLUMN_SORT[c] === sort) ?? 'name';
  const descriptor: SortDescriptor = { column, direction: order === 'asc' ? 'ascending' : 'descending' };
  return (
    <Virtualizer layout={TableLayout} layoutOptions={{ rowHeight: ROW_HEIGHT, headingHeight: HEADING_HEIGHT }}>
      <Table
        aria-label={props.label}
        className="library-table"
        selectionMode={props.canSelect ? 'multiple' : 'none'}
        selectionBehavior="toggle"
        selectedKeys={props.selectedKeys}
        onSelectionChange={props.onSelectionChange}
        sortDescriptor={descriptor}
        onSortChange={(d) =>
          onSortChange(COLUMN_SORT[String(d.column)] ?? 'name', d.direction === 'descending' ? 'desc' : 'asc')
        }
        onRowAction={(key: Key) => {
          const asset = byKey.get(String(key));
          if (asset) props.onOpen(asset);
        }}
        data-keeps-focus-on-navigation=""
      >
        <TableHeader className="library-table__head">
          {props.canSelect && (
            <Column id="select" width={44} minWidth={44} className="library-table__column">
              <SelectionCheckbox aria-label="Select every asset" />
            </Column>
          )}
          <SortColumn id="name" isRowHeader width="3fr" minWidth={180}>
            Name
          </SortColumn>
          <SortColumn id="type" width="1fr" minWidth={88}>
            Type
          </SortColumn>
          <SortColumn id="state" width="1fr" minWidth={104}>
            State
          </SortColumn>
          <SortColumn id="size" width={84} minWidth={84}>
            Size
          </SortColumn>
          <SortColumn id="modified" width="1.4fr" minWidth={124}>
            Modified
          </SortColumn>
        </TableHeader>
        <TableBody className="library-table__body">
          <Collection items={props.assets}>
            {(asset) => (
              <AssetRow key={assetPathOf(asset)} asset={asset} canSelect={props.canSelect} showFolder={showFolder} />
            )}
          </Collection>
          {props.hasMore && (
            <TableLoadMoreItem isLoading={props.isLoadingMore} onLoadMore={props.onLoadMore} className="library-more">
              <Spinner /> <span>Loading more…</span>
            </TableLoadMoreItem>
          )}
        </TableBody>
      </Table>
    </Virtualizer>
  );
}

function SortColumn({
  id,
  children,
  ...props
}: {
  id: string;
  children: string;
  isRowHeader?: boolean;
  width?: number | `${number}fr`;
  minWidth?: number;
}) {
  return (
    <Column id={id} allowsSorting className="library-table__column" {...props}>
      {({ sortDirection }) => (
        <span className="library-table__sort">
          {children}
          {sortDirection === 'ascending' && <ArrowUpIcon aria-hidden="true" />}
          {sortDirection === 'descending' && <ArrowDownIcon aria-hidden="true" />}
        </span>
      )}
    </Column>
  );
}

function AssetRow({ asset, canSelect, showFolder }: { asset: AssetMetadata; canSelect: boolean; showFolder: boolean }) {
  const thumb = assetThumbnailUrl(asset);
  const size = sizeOf(asset);
  return (
    <Row id={assetPathOf(asset)} textValue={asset.name} className="library-row" data-path={assetPathOf(asset)}>
      {canSelect && (
        <Cell className="library-table__cell">
          <SelectionCheckbox />
        </Cell>
      )}
      <Cell className="library-table__cell library-table__name">
        <span className="library-row__thumb" aria-hidden="true">
          {thumb ? <img src={thumb} alt="" loading="lazy" decoding="async" /> : <AssetTypeIcon type={asset.type} />}
        </span>
        <span className="library-row__text">
          <span className="library-row__name">{asset.name}</span>
          {showFolder && (
            <span className="library-row__folder">{asset.folderPath.replace(/^Assets\/?/, '') || '/'}</span>
          )}
        </span>
        {needsAltText(asset) && (
          <span className="asset-card__warn" title="No alt text">
            <AlertIcon />
            <span className="visually-hidden">No alt text</span>
          </span>
        )}
      </Cell>
      <Cell className="library-table__cell">{typeLabelOf(asset.type)}</Cell>
      <Cell className="library-table__cell">
        <span className="library-table__state">
          <WorkflowBadge state={asset.workflow.state} />
          {asset.workflow.checkedOut && asset.workflow.checkedOutUser && (
            <CheckedOutMark user={asset.workflow.checkedOutUser} />
          )}
          <ScheduleMark schedule={asset.workflow} compact />
        </span>
      </Cell>
      <Cell className="library-table__cell library-table__number">{size === null ? '—' : formatBytes(size)}</Cell>
      <Cell className="library-table__cell library-table__muted">
        <span title={formatDateTime(asset.lastModifiedDate)}>{formatDate(asset.lastModifiedDate)}</span>
      </Cell>
    </Row>
  );
}
