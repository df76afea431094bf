import { useEffect, useState } from 'react';
import type { AssetListSort } from '../../../../shared/api/assets';
import { WorkflowState } from '../../../../shared/api/workflow';
import { ASSET_TYPES, type AssetType } from '../../../../shared/registry';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { ArrowDownIcon, ArrowUpIcon, ListIcon, ImagesIcon } from '../../../components/ui/icons';
import { SearchField } from '../../../components/ui/search-field';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { Select, type SelectOption } from '../../../components/ui/select';
import { DEFAULT_QUERY, isFiltered, type LibraryQuery } from './library-query';

/** Quiet time after typing before a search is sent. */
const SEARCH_DELAY_MS = 250;

export type LibraryView = 'grid' | 'list';

const ANY = 'any';

const TYPE_OPTIONS: SelectOption<string>[] = [
  { id: ANY, label: 'Every type' },
  ...ASSET_TYPES.map((a) => ({ id: a.type, label: a.label })),
];

const STATE_OPTIONS: SelectOption<string>[] = [
  { id: ANY, label: 'Every state' },
  ...WorkflowState.options.map((s) => ({ id: s, label: s })),
];

const SORT_OPTIONS: SelectOption<AssetListSort>[] = [
  { id: 'name', label: 'Sort by name' },
  { id: 'lastModifiedDate', label: 'Sort by last modified' },
  { id: 'type', label: 'Sort by type' },
  { id: 'state', label: 'Sort by state' },
  { id: 'size', label: 'Sort by size' },
];

/**
 * Search, filters (type, state, images without alt text, subfolders too), sort and the grid/list switch of the
 * library. The search is sent after a short pause in typing; everything else at once.
 */
export function LibraryFilters({
  query,
  onChange,
  view,
  onViewChange,
  total,
  isLibraryRoot,
}: {
  query: LibraryQuery;
  onChange: (change: Partial<LibraryQuery>) => void;
  view: LibraryView;
  onViewChange: (view: LibraryView) => void;
  /** How many assets match (from the listing). */
  total: number | undefined;
  /** At the library's root a search looks through every folder unless the person unticks "Include subfolders". */
  isLibraryRoot: boolean;
}) {
  const [search, setSearch] = useState(query.q);
  useEffect(() => setSearch(query.q), [query.q]);
  useEffect(() => {
    if (search === query.q) return;
    const t = setTimeout(() => onChange({ q: search }), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [search, query.q, onChange]);

  return (
    <div className="library-filters" role="search" aria-label="Find assets">
      <div className="library-filters__row">
        <SearchField
          label={isLibraryRoot ? 'Search the whole library' : 'Search assets'}
          value={search}
          onChange={setSearch}
          placeholder={isLibraryRoot ? 'Search the whole library: name, title or alt text' : 'Name, title or alt text'}
        />
        <Select
          label="Type"
          isLabelHidden
          options={TYPE_OPTIONS}
          value={query.type ?? ANY}
          onChange={(v) => onChange({ type: v === ANY ? null : (v as AssetType) })}
        />
        <Select
          label="State"
          isLabelHidden
          options={STATE_OPTIONS}
          value={query.state ?? ANY}
          onChange={(v) => onChange({ state: v === ANY ? null : (v as WorkflowState) })}
        />
        <div className="library-filters__sort">
          <Select
            label="Sort"
            isLabelHidden
            options={SORT_OPTIONS}
            value={query.sort}
            onChange={(sort) => onChange({ sort })}
          />
          <Button
            iconOnly
            aria-label={query.order === 'asc' ? 'Ascending; sort descending' : 'Descending; sort ascending'}
            onPress={() => onChange({ order: query.order === 'asc' ? 'desc' : 'asc' })}
          >
            {query.order === 'asc' ? <ArrowUpIcon /> : <ArrowDownIcon />}
          </Button>
        </div>
      </div>
      <div className="library-filters__row library-filters__row--second">
        <Checkbox isSelected={query.missingAlt} onChange={(missingAlt) => onChange({ missingAlt })}>
          Images without alt text
        </Checkbox>
        <Checkbox isSelected={query.deep} onChange={(deep) => onChange({ deep })}>
          Include subfolders
        </Checkbox>
        {isFiltered(query) && (
          <Button
            size="sm"
            variant="quiet"
            onPress={() => onChange({ q: '', type: null, state: null, missingAlt: DEFAULT_QUERY.missingAlt })}
          >
            Clear filters
          </Button>
        )}
        <p className="library-filters__count" aria-live="polite">
          {total === undefined ? '' : countText(total, query.deep, isLibraryRoot)}
        </p>
        <SegmentedControl
          label="Show as"
          value={view}
          onChange={onViewChange}
          options={[
            { id: 'grid', label: 'Grid', icon: <ImagesIcon /> },
            { id: 'list', label: 'List', icon: <ListIcon /> },
          ]}
        />
      </div>
    </div>
  );
}

/** How many assets match, and where they were looked for when that is more than the folder itself. */
function countText(total: number, deep: boolean, isLibraryRoot: boolean): string {
  const count = `${total.toLocaleString()} ${total === 1 ? 'asset' : 'assets'}`;
  if (!deep) return count;
  return isLibraryRoot ? `${count} in the whole library` : `${count}, subfolders included`;
}
