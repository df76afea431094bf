import { useEffect, useRef, useState } from 'react';
import { ComboBox, Input, Label, ListBox, ListBoxItem, Popover, Text, type Key } from 'react-aria-components';
import type { TreeItem as FoundItem } from '../../../../shared/api/folders';
import { SearchIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/errors';
import { useFindItems } from '../api/find-items';
import {
  capitalise,
  itemOfTreeItem,
  KIND_LABEL,
  labelOf,
  parentPathOf,
  secondaryNameOf,
  type ExplorerKind,
} from '../../../lib/tree/items';
import { useExplorer } from './explorer-context';
import { KindIcon } from '../../../components/tree/kind-icon';
import './explorer.css';
import './find-field.css';
import { FIND_INPUT_CLASS, FIND_LABEL, FIND_PLACEHOLDER, FindBox, type FindDraft } from './find-field-draft';
import { useDebounced } from '../../../lib/use-debounced';

/** How long typing pauses before the service is asked. */
const FIND_DEBOUNCE_MS = 250;

const kindOfFound = (f: FoundItem): ExplorerKind => (f.kind === 'asset' ? 'assetfolder' : itemOfTreeItem(f).kind);
const keyOf = (f: FoundItem) => `${f.kind}:${f.path}`;
/** The last option: the same words in full-text search (what things say, not only their names). */
const SEARCH_CONTENT_KEY = 'search-content';
type FindRow = { id: string; found: FoundItem } | { id: typeof SEARCH_CONTENT_KEY; found: null };

/**
 * Find by title or name across every site and the asset library, on the server: for what the tree has not loaded.
 * Each result shows its title, with its kind, name and place below. Choosing one opens it (an asset opens its
 * folder) and the tree opens down to it.
 */
export function FindField({
  onSearchContent,
  draft,
}: {
  onSearchContent?: (q: string) => void;
  /** What the first screen's box (FindFieldFallback) was given before this loaded: its text, and the focus. */
  draft?: FindDraft;
}) {
  const explorer = useExplorer();
  // Read while rendering: the box this replaces is gone by the time effects run.
  const [handed] = useState(() => ({ value: draft?.value ?? '', focused: draft?.focused ?? false }));
  const [input, setInput] = useState(handed.value);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const el = inputRef.current;
    if (!handed.focused || !el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [handed]);
  const q = useDebounced(input.trim(), FIND_DEBOUNCE_MS);
  const found = useFindItems(q);
  const matches = q && input.trim() ? (found.data ?? []) : [];
  const items: FindRow[] = [
    ...matches.map((f) => ({ id: keyOf(f), found: f })),
    ...(onSearchContent && input.trim() ? [{ id: SEARCH_CONTENT_KEY, found: null } as const] : []),
  ];

  const handleSelection = (key: Key | null) => {
    if (key === SEARCH_CONTENT_KEY) {
      onSearchContent?.(input.trim());
      setInput('');
      return;
    }
    const hit = matches.find((f) => keyOf(f) === key);
    if (!hit) return;
    explorer.open(itemOfTreeItem(hit));
    setInput('');
  };

  return (
    <ComboBox
      className="find-field"
      inputValue={input}
      onInputChange={setInput}
      items={items}
      selectedKey={null}
      onSelectionChange={handleSelection}
      menuTrigger="input"
      allowsEmptyCollection
      allowsCustomValue
    >
      <Label className="visually-hidden">{FIND_LABEL}</Label>
      <FindBox>
        <Input ref={inputRef} className={FIND_INPUT_CLASS} placeholder={FIND_PLACEHOLDER} />
        {found.isFetching && q && (
          <span className="find-field__busy">
            <Spinner />
          </span>
        )}
      </FindBox>
      <Popover className="popover find-field__popover" offset={4} placement="bottom start">
        <ListBox<FindRow>
          className="listbox"
          renderEmptyState={() => (
            <p className="find-field__empty">
              {found.isError
                ? `Could not search: ${errorMessage(found.error)}`
                : found.isFetching || q !== input.trim()
                  ? 'Searching…'
                  : `Nothing has “${input.trim()}” in its title or name.`}
            </p>
          )}
        >
          {({ found: f }) => {
            if (!f) {
              return (
                <ListBoxItem
                  id={SEARCH_CONTENT_KEY}
                  textValue={`Search all content for ${input.trim()}`}
                  className="listbox__item find-field__item find-field__search-content"
                >
                  <SearchIcon className="find-field__kind" />
                  <span className="listbox__text">
                    <Text slot="label">Search all content for “{input.trim()}”</Text>
                    <Text slot="description" className="listbox__description">
                      Titles, text, fields and alt text
                    </Text>
                  </span>
                </ListBoxItem>
              );
            }
            const kind = f.kind === 'asset' ? 'asset' : KIND_LABEL[kindOfFound(f)];
            const secondary = secondaryNameOf(f);
            return (
              <ListBoxItem
                id={keyOf(f)}
                textValue={`${labelOf(f)}, ${kind}`}
                className="listbox__item find-field__item"
              >
                {/* An asset shows a file icon; choosing it opens its folder. */}
                <KindIcon item={{ kind: f.kind === 'asset' ? 'page' : kindOfFound(f) }} className="find-field__kind" />
                <span className="listbox__text">
                  <Text slot="label">{labelOf(f)}</Text>
                  <Text slot="description" className="listbox__description">
                    {/* Choosing a page opens its editor: say so. */}
                    {f.kind === 'page' ? 'Edit page' : capitalise(kind)}
                    {secondary ? ` “${secondary}”` : ''} in {parentPathOf(f.path) ?? 'Folio'}
                  </Text>
                </span>
              </ListBoxItem>
            );
          }}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}

export default FindField;
