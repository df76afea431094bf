import { SearchIcon } from '../../../components/ui/icons';
import './find-field.css';

/** What was typed into the header's find field before its code loaded, and whether it had the focus. */
export interface FindDraft {
  value: string;
  focused: boolean;
}

export const createFindDraft = (): FindDraft => ({ value: '', focused: false });

/**
 * The find field as the first screen draws it, while the explorer's code loads (FindField takes over): the same
 * box in the same place, so the header does not move when it comes, and a real input, so a person who tabs or
 * types into it early loses nothing (`draft` hands the text and the focus to FindField).
 */
export function FindFieldFallback({ draft }: { draft: FindDraft }) {
  return (
    <div className="find-field">
      <div className="find-field__box">
        <SearchIcon className="find-field__icon" />
        <input
          className="field__input find-field__input"
          aria-label="Find by title or name"
          placeholder="Find pages, sections, folders, assets…"
          defaultValue={draft.value}
          onChange={(e) => {
            draft.value = e.currentTarget.value;
          }}
          onFocus={() => {
            draft.focused = true;
          }}
          onBlur={() => {
            draft.focused = false;
          }}
        />
      </div>
    </div>
  );
}
