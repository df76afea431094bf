import { useMemo, useState } from 'react';
import {
  Collection,
  GridList,
  GridListLoadMoreItem,
  GridLayout,
  Size,
  Virtualizer,
  type Key,
} from 'react-aria-components';
import type { AssetMetadata } from '../../../shared/api/assets';
import { ASSET_LIBRARY } from '../../../shared/api/paths';
import { ASSET_TYPES, type AssetType } from '../../../shared/registry';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { SearchField } from '../../components/ui/search-field';
import { Select, type SelectOption } from '../../components/ui/select';
import { Spinner } from '../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../components/ui/status';
import { ContainerPicker } from '../../components/tree/container-picker';
import { assetFactsOf, assetPathOf } from '../../lib/assets';
import { useAssetList } from '../../lib/queries/assets';
import { AssetCard } from './asset-card';
import './pickers.css';
import { useDebounced } from '../../lib/use-debounced';

/** Cards per request (the grid asks for more as it scrolls). */
const PAGE_SIZE = 60;
/** Quiet time after typing before a search is sent. */
const SEARCH_DELAY_MS = 250;

const ALL = '';

/**
 * Choosing from the asset library: its folders as a tree, a folder's assets as a grid of cards (thumbnails of
 * images — never the originals — and an icon for other types), search across the library, a type filter, more
 * cards as the grid scrolls. `mode: 'asset'` answers the chosen asset; `mode: 'folder'` the folder shown.
 */
export function AssetPickerDialog({
  mode,
  title,
  types,
  startFolder,
  onChoose,
  onCancel,
}: {
  mode: 'asset' | 'folder';
  title: string;
  /** Only these types can be chosen (all when absent). */
  types?: readonly AssetType[];
  startFolder?: string;
  onChoose: (result: { asset: AssetMetadata | null; folder: string }) => void;
  onCancel: () => void;
}) {
  const [folder, setFolder] = useState(startFolder || ASSET_LIBRARY);
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const allowed = useMemo(() => new Set<string>(types ?? ASSET_TYPES.map((a) => a.type)), [types]);
  const [typeFilter, setTypeFilter] = useState<string>(types?.length === 1 ? types[0]! : ALL);
  const [selected, setSelected] = useState<AssetMetadata | null>(null);

  // The library's root lists everything in it (as media libraries do); a folder lists what it holds.
  const everywhere = q !== '' || folder === ASSET_LIBRARY;
  const query = {
    limit: PAGE_SIZE,
    sort: 'name' as const,
    ...(q ? { q } : {}),
    ...(everywhere ? { recursive: 'true' as const } : {}),
    ...(typeFilter ? { type: typeFilter as AssetType } : {}),
  };
  const list = useAssetList(folder, query);
  const assets = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total;
  const byKey = useMemo(() => new Map(assets.map((a) => [assetPathOf(a), a])), [assets]);
  const disabledKeys = mode === 'asset' ? assets.filter((a) => !allowed.has(a.type)).map(assetPathOf) : [];

  const typeOptions: SelectOption<string>[] = [
    ...(types?.length === 1 ? [] : [{ id: ALL, label: types ? 'Every type allowed here' : 'Every type' }]),
    ...ASSET_TYPES.filter((a) => allowed.has(a.type)).map((a) => ({ id: a.type, label: a.label })),
  ];

  const choose = (asset: AssetMetadata | null) => {
    if (mode === 'asset' && (!asset || !allowed.has(asset.type))) return;
    onChoose({ asset, folder });
  };

  const where = everywhere
    ? 'Everywhere in the asset library'
    : folder.split('/').join(' / ').replace(ASSET_LIBRARY, 'Asset library');

  return (
    <Modal
      isOpen
      onOpenChange={(open) => !open && onCancel()}
      title={title}
      size="xl"
      description={
        mode === 'folder'
          ? 'Choose a folder in the tree; its contents are shown on the right.'
          : 'Browse the folders or search, then choose one item.'
      }
      footer={
        <>
          <span className="asset-picker__selection" aria-live="polite">
            {mode === 'asset' && selected ? (
              <>
                <strong>{selected.name}</strong> — {assetFactsOf(selected)}
                {selected.fields.alttext ? ` · Alt: “${selected.fields.alttext}”` : ''}
              </>
            ) : mode === 'folder' ? (
              <>
                Folder: <strong>{folder}</strong>
              </>
            ) : null}
          </span>
          <Button variant="quiet" onPress={onCancel}>
            Cancel
          </Button>
          <Button
            variant="primary"
            isDisabled={mode === 'asset' && (!selected || !allowed.has(selected.type))}
            onPress={() => choose(selected)}
          >
            {mode === 'folder' ? 'Choose this folder' : 'Choose'}
          </Button>
        </>
      }
    >
      <div className="asset-picker">
        <div className="asset-picker__folders">
          <ContainerPicker
            label="Asset library folders"
            realm="library"
            keep={(item) => item.kind === 'assetfolder' || item.kind === 'library'}
            selectedPath={folder}
            initiallyExpanded={folder}
            onSelect={(item) => {
              setFolder(item.path);
              setSelected(null);
              setSearch('');
            }}
          />
        </div>
        <div className="asset-picker__main">
          <div className="asset-picker__filters">
            <SearchField
              label="Search the asset library"
              value={search}
              onChange={setSearch}
              placeholder="Search by name, title or alt text"
            />
            {typeOptions.length > 1 && (
              <Select label="Type" options={typeOptions} value={typeFilter} onChange={setTypeFilter} />
            )}
          </div>
          <p className="asset-picker__where" aria-live="polite">
            {where}
            {total !== undefined && ` — ${total} ${total === 1 ? 'item' : 'items'}`}
          </p>
          {list.isError ? (
            <ErrorState title="Could not load the assets" error={list.error} onRetry={() => void list.refetch()} />
          ) : list.isPending ? (
            <p className="asset-picker__loading" role="status">
              <Spinner /> Loading…
            </p>
          ) : assets.length === 0 ? (
            <EmptyState title={q ? `Nothing matches “${q}”` : 'This folder holds no assets'}>
              {q
                ? 'Try another word, or clear the type filter.'
                : 'Choose another folder, or search the whole library.'}
            </EmptyState>
          ) : (
            <Virtualizer
              layout={GridLayout}
              layoutOptions={{ minItemSize: new Size(150, 204), minSpace: new Size(8, 8) }}
            >
              <GridList
                aria-label={`Assets in ${where}`}
                className="asset-picker__grid"
                layout="grid"
                selectionMode={mode === 'asset' ? 'single' : 'none'}
                selectionBehavior="replace"
                selectedKeys={selected ? [assetPathOf(selected)] : []}
                disabledKeys={disabledKeys}
                onSelectionChange={(keys) => {
                  if (keys === 'all') return;
                  const [key] = [...keys];
                  setSelected(key === undefined ? null : (byKey.get(String(key)) ?? null));
                }}
                onAction={(key: Key) => mode === 'asset' && choose(byKey.get(String(key)) ?? null)}
              >
                <Collection items={assets}>
                  {(asset) => <AssetCard key={assetPathOf(asset)} asset={asset} isAllowed={allowed.has(asset.type)} />}
                </Collection>
                <GridListLoadMoreItem
                  isLoading={list.isFetchingNextPage}
                  onLoadMore={() => list.hasNextPage && void list.fetchNextPage()}
                >
                  <Spinner />
                </GridListLoadMoreItem>
              </GridList>
            </Virtualizer>
          )}
        </div>
      </div>
    </Modal>
  );
}
