import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { AssetMetadata } from '../../../../shared/api/assets';
import { ASSET_LIBRARY } from '../../../../shared/api/paths';
import {
  assetTypeDef,
  WIDGET_CATEGORY_LABEL,
  WIDGET_TYPES,
  type WidgetCategory,
  type WidgetType,
} from '../../../../shared/registry';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/dialog';
import { SearchField } from '../../../components/ui/search-field';
import { AssetTypeIcon, WidgetTypeIcon } from '../../../kit/type-icon';
import { useAssetList } from '../../../lib/queries/assets';
import { rankWidgetTypes, widgetTypeForAsset } from '../lib/palette-search';
import { useDebounced } from '../../../lib/use-debounced';

const CATEGORIES = Object.keys(WIDGET_CATEGORY_LABEL) as WidgetCategory[];
/** Shared assets offered for a search (the asset picker finds the rest). */
const LIBRARY_LIMIT = 6;
/** Quiet time after typing before the library is searched. */
const SEARCH_DELAY_MS = 200;

/** One choice of the palette: a widget type, or a shared asset of the library shown by its widget. */
type Choice =
  | { kind: 'type'; type: WidgetType; label: string; description: string }
  | { kind: 'asset'; type: WidgetType; label: string; description: string; asset: AssetMetadata };

/**
 * The palette: the 27 widget types grouped by category, or — once something is typed — ranked by how well they
 * match (a label before a description), followed by shared assets of the library that match ("From the
 * library": choosing one adds a widget linked to it). One list from the keyboard: Up/Down move through every
 * choice, Enter adds the one shown as active (the search keeps the focus; `aria-activedescendant` follows).
 */
export function WidgetPalette({
  region,
  onChoose,
  onChooseShared,
  onClose,
}: {
  region: string;
  onChoose: (type: WidgetType) => void;
  /** Adds a widget of `type` linked to the shared asset. */
  onChooseShared: (type: WidgetType, asset: AssetMetadata) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const baseId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const q = query.trim();
  const searched = useDebounced(q, SEARCH_DELAY_MS);
  const library = useAssetList(
    ASSET_LIBRARY,
    { q: searched, recursive: 'true', limit: LIBRARY_LIMIT },
    { enabled: searched.length >= 2 },
  );

  const types = useMemo(() => rankWidgetTypes(q), [q]);
  const shared = useMemo((): Choice[] => {
    if (searched.length < 2 || q === '') return [];
    const assets = library.data?.pages[0]?.items ?? [];
    return assets.flatMap((asset) => {
      const w = widgetTypeForAsset(asset);
      if (!w) return [];
      const typeLabel = assetTypeDef(asset.type)?.label ?? w.label;
      const where = asset.folderPath.replace(/^Assets\/?/, '') || 'the library';
      return [{ kind: 'asset', type: w.type, label: asset.name, description: `${typeLabel} in ${where}`, asset }];
    });
  }, [library.data, q, searched]);

  // Typed: best matches first. Not typed: by category, in the palette's own order.
  const groups: { id: string; title: string; choices: Choice[] }[] = useMemo(() => {
    const asChoice = (w: (typeof WIDGET_TYPES)[number]): Choice => ({ kind: 'type', ...w });
    const list =
      q === ''
        ? CATEGORIES.map((c) => ({
            id: c,
            title: WIDGET_CATEGORY_LABEL[c],
            choices: types.filter((w) => w.category === c).map(asChoice),
          }))
        : [{ id: 'matches', title: 'Widget types', choices: types.map(asChoice) }];
    if (shared.length) list.push({ id: 'library', title: 'From the library', choices: shared });
    return list.filter((g) => g.choices.length > 0);
  }, [q, types, shared]);
  const flat = groups.flatMap((g) => g.choices);
  const current = Math.min(active, Math.max(0, flat.length - 1));
  const optionId = (i: number) => `${baseId}-option-${i}`;

  useEffect(() => setActive(0), [q]);
  useEffect(() => {
    listRef.current?.querySelector(`[id="${CSS.escape(optionId(current))}"]`)?.scrollIntoView({ block: 'nearest' });
  });

  const choose = (choice: Choice | undefined) => {
    if (!choice) return;
    if (choice.kind === 'asset') onChooseShared(choice.type, choice.asset);
    else onChoose(choice.type);
  };

  /** Keys of the search box and of the list itself (reached with Tab): the same moves through the choices. */
  const handleKeyDown = (event: KeyboardEvent) => {
    const last = flat.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: Math.min(last, current + 1),
      ArrowUp: Math.max(0, current - 1),
      Home: 0,
      End: last,
    };
    if (event.key in moves && flat.length > 0) {
      // In the search box, Home and End stay the text's while there is text to move through.
      const inText = event.target instanceof HTMLInputElement;
      if ((event.key === 'Home' || event.key === 'End') && inText && query !== '') return;
      event.preventDefault();
      setActive(moves[event.key]!);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(flat[current]);
    }
  };

  let index = -1;
  const option = (choice: Choice, icon: ReactNode) => {
    index += 1;
    const i = index;
    return (
      <li
        key={`${choice.kind}:${choice.kind === 'asset' ? `${choice.asset.folderPath}/${choice.asset.name}` : choice.type}`}
        id={optionId(i)}
        role="option"
        aria-selected={i === current}
        aria-labelledby={`${optionId(i)}-l`}
        aria-describedby={`${optionId(i)}-d`}
        className={i === current ? 'palette__item palette__item--active' : 'palette__item'}
        onClick={() => choose(choice)}
        onMouseMove={() => setActive(i)}
      >
        {icon}
        <span className="palette__text">
          <span id={`${optionId(i)}-l`} className="palette__label">
            {choice.label}
          </span>
          <span id={`${optionId(i)}-d`} className="palette__description">
            {choice.description}
          </span>
        </span>
      </li>
    );
  };

  return (
    <Modal
      isOpen
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      size="lg"
      title={`Add a widget to “${region}”`}
      footer={
        <Button variant="quiet" onPress={onClose}>
          Cancel
        </Button>
      }
    >
      <SearchField
        label="Find a widget type"
        placeholder="Find a widget or a shared asset: rich text, image, poll…"
        value={query}
        onChange={setQuery}
        autoFocus
        aria-controls={`${baseId}-list`}
        aria-activedescendant={flat.length ? optionId(current) : undefined}
        aria-describedby={`${baseId}-hint`}
        onKeyDown={handleKeyDown}
      />
      <p id={`${baseId}-hint`} className="palette__hint">
        Up and Down move through the list; Enter adds the highlighted one.
      </p>
      <p className="visually-hidden" role="status">
        {types.length} {types.length === 1 ? 'widget type' : 'widget types'}
        {shared.length ? `, ${shared.length} from the library` : ''}
      </p>
      <div
        className="palette"
        id={`${baseId}-list`}
        role="listbox"
        aria-label="Widget types"
        ref={listRef}
        tabIndex={0}
        aria-activedescendant={flat.length ? optionId(current) : undefined}
        onKeyDown={handleKeyDown}
      >
        {flat.length === 0 && <p className="widget-card__muted">No widget type matches “{query}”.</p>}
        {groups.map((g) => (
          <ul key={g.id} className="palette__group palette__list" role="group" aria-labelledby={`${baseId}-${g.id}`}>
            <li role="presentation" id={`${baseId}-${g.id}`} className="palette__title">
              {g.title}
            </li>
            {g.choices.map((c) =>
              option(
                c,
                c.kind === 'asset' ? (
                  <AssetTypeIcon type={c.asset.type} className="palette__icon" />
                ) : (
                  <WidgetTypeIcon type={c.type} className="palette__icon" />
                ),
              ),
            )}
          </ul>
        ))}
      </div>
    </Modal>
  );
}
