import { memo } from 'react';
import {
  Collection,
  GridList,
  GridListLoadMoreItem,
  GridLayout,
  Size,
  Virtualizer,
  type Key,
  type Selection,
} from 'react-aria-components';
import type { AssetMetadata } from '../../../../shared/api/assets';
import { Spinner } from '../../../components/ui/spinner';
import { AssetCard } from '../../../kit/pickers/asset-card';
import { assetPathOf } from '../../../lib/assets';

/** Smallest card; cards grow to fill the row. */
const CARD_SIZE = new Size(168, 208);
const CARD_GAP = new Size(12, 12);

/** What the grid and the list share: the assets, the selection, opening one, loading more. */
export interface AssetCollectionProps {
  label: string;
  assets: readonly AssetMetadata[];
  selectedKeys: Selection;
  onSelectionChange: (keys: Selection) => void;
  /** Enter, a click without a selection, or a double click: the asset's details. */
  onOpen: (asset: AssetMetadata) => void;
  hasMore: boolean;
  isLoadingMore: boolean;
  onLoadMore: () => void;
  /** Writers may select (for bulk actions); readers only open. */
  canSelect: boolean;
}

/**
 * The assets of a folder as a grid of cards: the thumbnail of an image (never its original), an icon and the
 * extension for other types, the name, type and workflow state. Virtualised (only the cards in view and a few
 * around are rendered) and paged: more are asked for as the end comes into view. Arrow keys move between cards;
 * Space selects, Shift extends, Ctrl+A selects everything, Enter opens. Memoised: the library's other changes (an
 * asset's panel or a dialog opening, files dragged over it) leave the cards alone while the props stay the same.
 */
export const AssetGrid = memo(function AssetGrid(props: AssetCollectionProps) {
  const byKey = new Map(props.assets.map((a) => [assetPathOf(a), a]));
  return (
    <Virtualizer
      layout={GridLayout}
      layoutOptions={{ minItemSize: CARD_SIZE, minSpace: CARD_GAP, maxColumns: 12, preserveAspectRatio: true }}
    >
      <GridList
        aria-label={props.label}
        className={
          props.selectedKeys === 'all' || props.selectedKeys.size > 0
            ? 'library-grid library-grid--selecting'
            : 'library-grid'
        }
        layout="grid"
        selectionMode={props.canSelect ? 'multiple' : 'none'}
        selectionBehavior="toggle"
        selectedKeys={props.selectedKeys}
        onSelectionChange={props.onSelectionChange}
        onAction={(key: Key) => {
          const asset = byKey.get(String(key));
          if (asset) props.onOpen(asset);
        }}
        data-keeps-focus-on-navigation=""
      >
        <Collection items={props.assets}>{(asset) => <AssetCard key={assetPathOf(asset)} asset={asset} />}</Collection>
        {props.hasMore && (
          <GridListLoadMoreItem isLoading={props.isLoadingMore} onLoadMore={props.onLoadMore} className="library-more">
            <Spinner /> <span>Loading more…</span>
          </GridListLoadMoreItem>
        )}
      </GridList>
    </Virtualizer>
  );
});
