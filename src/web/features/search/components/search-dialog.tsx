import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchHit, SearchKind, SearchQuery } from '../../../../shared/api/search';
import { WorkflowState } from '../../../../shared/api/workflow';
import { ASSET_LIBRARY } from '../../../../shared/api/paths';
import { assetTypeDef } from '../../../../shared/registry';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/dialog';
import { SearchIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { Select } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { WorkflowBadge } from '../../../components/ui/workflow-badge';
import { errorMessage } from '../../../lib/errors';
import { useSites } from '../../../lib/queries/sites';
import { useDebounced } from '../../../lib/use-debounced';
import { useSearch } from '../api/search';
import { SEARCH_SHORTCUT_LABEL } from '../lib/shortcut';
import { HitIcon } from './hit-icon';
import { Snippet } from './snippet';
import './search.css';

/** Quiet time after typing before the server is asked. */
const SEARCH_DEBOUNCE_MS = 200;
/** Results per request; "Show more" fetches the next as many. */
const PAGE_SIZE = 20;

const GROUPS: readonly { kind: SearchKind; label: string }[] = [
  { kind: 'page', label: 'Pages' },
  { kind: 'asset', label: 'Assets' },
  { kind: 'folder', label: 'Folders' },
];

type KindFilter = SearchKind | 'all';
const KIND_OPTIONS: readonly { id: KindFilter; label: string }[] = [
  { id: 'all', label: 'All' },
  ...GROUPS.map((g) => ({ id: g.kind, label: g.label })),
];
const EVERY = '*';

/** Where a hit is: its parent path, "Asset library/…" for assets. */
function placeOf(hit: SearchHit): string {
  const parent = hit.path.split('/').slice(0, -1);
  if (parent[0] === ASSET_LIBRARY) parent[0] = 'Asset library';
  return parent.join(' / ') || 'Folio';
}

/** A hit's type in words: an asset type's label, a page's template, a folder item's kind. */
function typeLabelOf(hit: SearchHit): string {
  if (hit.kind === 'asset') return assetTypeDef(hit.type)?.label ?? hit.type;
  if (hit.kind === 'page') return `${hit.type} template`;
  return hit.type;
}

/** What opening a hit does, for its description. */
const ACTION_OF: Record<SearchKind, string> = { page: 'Edit page', asset: 'Asset', folder: 'Open' };

export interface SearchDialogProps {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  /** What the dialog starts with (the find field's text). */
  initialQuery: string;
  /** Opens a hit: a page in the editor, an asset in the library with its panel open, a folder in the explorer. */
  onOpenHit: (hit: SearchHit) => void;
  /** The active hit changed (pointed at, moved to, or first of an answer): it may be opened next. */
  onActiveHit?: (hit: SearchHit) => void;
}

/**
 * Search everything by what it says: a combobox (the text) controlling a listbox of results grouped by kind, with
 * the active result followed by `aria-activedescendant` (focus stays in the text, so typing goes on), arrow keys
 * to move and Enter to open. Filters narrow by kind, site and workflow state. A live region says how many
 * results there are once they arrive.
 */
export function SearchDialog({ isOpen, onOpenChange, initialQuery, onOpenHit, onActiveHit }: SearchDialogProps) {
  const [input, setInput] = useState(initialQuery);
  const [kind, setKind] = useState<KindFilter>('all');
  const [site, setSite] = useState<string>(EVERY);
  const [state, setState] = useState<string>(EVERY);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  const id = useId();
  const listId = `${id}-results`;
  const optionId = (i: number) => `${id}-hit-${i}`;

  const q = useDebounced(input.trim(), SEARCH_DEBOUNCE_MS);
  const query = useMemo<Omit<SearchQuery, 'cursor'> | null>(
    () =>
      q
        ? {
            q,
            limit: PAGE_SIZE,
            ...(kind !== 'all' ? { kind: [kind] } : {}),
            ...(site !== EVERY ? { site } : {}),
            ...(state !== EVERY ? { state: [state as WorkflowState] } : {}),
          }
        : null,
    [q, kind, site, state],
  );
  const search = useSearch(query);
  const sites = useSites();

  // Grouped in the order of GROUPS; within a group the server's order (best match first).
  const groups = useMemo(() => {
    const hits = query ? (search.data?.pages.flatMap((p) => p.items) ?? []) : [];
    let index = 0;
    return GROUPS.map((g) => ({
      ...g,
      hits: hits.filter((h) => h.kind === g.kind).map((hit) => ({ hit, index: index++ })),
    })).filter((g) => g.hits.length > 0);
  }, [query, search.data]);
  const flat = useMemo(() => groups.flatMap((g) => g.hits.map((h) => h.hit)), [groups]);
  const count = flat.length;
  const isStale = input.trim() !== q || search.isPlaceholderData;
  const isSettled = query !== null && search.isSuccess && !search.isFetching && !isStale;
  // The server ranked only the newest of the items that match (a very common word).
  const isCapped = query !== null && !isStale && search.data?.pages[0]?.capped === true;

  // A new answer starts at its best match.
  useEffect(() => setActive(0), [search.data, query]);
  const activeHit = flat[active];
  useEffect(() => {
    if (activeHit) onActiveHit?.(activeHit);
  }, [activeHit, onActiveHit]);
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const announcement = !isSettled
    ? ''
    : count === 0
      ? `No results for “${q}”.`
      : `${count}${search.hasNextPage ? ' or more' : ''} ${count === 1 ? 'result' : 'results'}${
          isCapped ? ', from the newest matches' : ''
        }.`;

  const open = (hit: SearchHit | undefined) => {
    if (!hit) return;
    onOpenHit(hit);
    onOpenChange(false);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    const last = count - 1;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (count === 0) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step > last ? 0 : i + step < 0 ? last : i + step));
    } else if ((event.key === 'PageDown' || event.key === 'PageUp') && count > 0) {
      event.preventDefault();
      setActive((i) => Math.max(0, Math.min(last, i + (event.key === 'PageDown' ? 5 : -5))));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (!isStale) open(flat[active]);
    }
  };

  const siteOptions = [
    { id: EVERY, label: 'Every site' },
    ...(sites.data ?? []).map((s) => ({ id: s.name, label: s.displayTitle || s.name })),
    { id: ASSET_LIBRARY, label: 'Asset library' },
  ];
  const stateOptions = [{ id: EVERY, label: 'Any state' }, ...WorkflowState.options.map((s) => ({ id: s, label: s }))];
  const hasResults = count > 0;

  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title="Search"
      size="lg"
      description={
        <>
          Words match their forms (“run” finds “running”), <q>a phrase</q> in quotes matches in order, −word leaves out.
          Open this from anywhere with <kbd>{SEARCH_SHORTCUT_LABEL}</kbd>.
        </>
      }
      footer={
        <Button variant="secondary" onPress={() => onOpenChange(false)}>
          Close
        </Button>
      }
    >
      <div className="search">
        <div className="search__box">
          <SearchIcon className="search__icon" />
          <input
            className="field__input search__input"
            type="text"
            role="combobox"
            aria-label="Search pages, assets and folders"
            aria-expanded={hasResults}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={hasResults && !isStale ? optionId(active) : undefined}
            autoComplete="off"
            spellCheck={false}
            // The dialog opens for this text: it is what the person came to do.
            autoFocus
            placeholder="Words, “a phrase”, -leave-out"
            value={input}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={handleKeyDown}
          />
          {query && search.isFetching && (
            <span className="search__busy" aria-hidden="true">
              <Spinner />
            </span>
          )}
        </div>

        <div className="search__filters" role="group" aria-label="Filters">
          <SegmentedControl<KindFilter> label="Kind" options={KIND_OPTIONS} value={kind} onChange={setKind} />
          <Select label="Site" isLabelHidden options={siteOptions} value={site} onChange={setSite} />
          <Select label="Workflow state" isLabelHidden options={stateOptions} value={state} onChange={setState} />
        </div>

        <div role="status" className="visually-hidden">
          {announcement}
        </div>

        {search.isError && query ? (
          <InlineAlert tone="danger" title="Could not search">
            {errorMessage(search.error)}{' '}
            <Button variant="secondary" size="sm" onPress={() => void search.refetch()}>
              Try again
            </Button>
          </InlineAlert>
        ) : null}

        <div
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label="Results"
          className={isStale && hasResults ? 'search__results search__results--stale' : 'search__results'}
        >
          {groups.map((g) => (
            <div key={g.kind} role="group" aria-labelledby={`${id}-${g.kind}`} className="search__group">
              <div role="presentation" id={`${id}-${g.kind}`} className="search__group-title">
                {g.label}
              </div>
              {g.hits.map(({ hit, index }) => (
                <div
                  key={`${hit.kind}:${hit.path}`}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === active}
                  data-index={index}
                  className="search__hit"
                  onMouseMove={() => setActive(index)}
                  // The text keeps focus: a click opens without moving it.
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => open(hit)}
                >
                  <HitIcon hit={hit} className="search__hit-icon" />
                  <span className="search__hit-text">
                    <span className="search__hit-title">{hit.title || hit.path.split('/').pop()}</span>
                    {hit.snippet && <Snippet snippet={hit.snippet} className="search__hit-snippet" />}
                    <span className="search__hit-place">
                      {ACTION_OF[hit.kind]} · {typeLabelOf(hit)} · in {placeOf(hit)}
                    </span>
                  </span>
                  {hit.state && <WorkflowBadge state={hit.state} className="search__hit-state" />}
                </div>
              ))}
            </div>
          ))}
        </div>

        {!query ? (
          <p className="search__hint">
            Type to search the titles, text, fields and alt text of everything you may read.
          </p>
        ) : isSettled && count === 0 ? (
          <p className="search__hint">
            Nothing matches “{q}”{kind !== 'all' || site !== EVERY || state !== EVERY ? ' with these filters' : ''}.
          </p>
        ) : isCapped && count > 0 ? (
          <p className="search__hint">
            So many items match “{q}” that only the newest of them are shown. More words narrow the search.
          </p>
        ) : !hasResults && search.isFetching ? (
          <p className="search__hint">Searching…</p>
        ) : null}

        {search.hasNextPage && !isStale && (
          <div className="search__more">
            <Button
              variant="secondary"
              size="sm"
              isPending={search.isFetchingNextPage}
              onPress={() => void search.fetchNextPage()}
            >
              Show more results
            </Button>
          </div>
        )}
      </div>
    </Modal>
  );
}

export default SearchDialog;
