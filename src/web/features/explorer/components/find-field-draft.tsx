import type { ReactNode } from 'react';
import { SearchIcon } from '../../../components/ui/icons';
import './find-field.css';

/** The find field's name, placeholder and input classes: the same for the first screen's box and the field. */
export const FIND_LABEL = 'Find by title or name';
export const FIND_PLACEHOLDER = 'Find pages, sections, folders, assets…';
export const FIND_INPUT_CLASS = 'field__input search-field__input find-field__input';

/** The box around the find field's input: the search icon before it, as in ui.css's search field. */
export function FindBox({ children }: { children: ReactNode }) {
  return (
    <div className="search-field__box">
      <SearchIcon className="search-field__icon" />
      {children}
    </div>
  );
}

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
      <FindBox>
        <input
          className={FIND_INPUT_CLASS}
          aria-label={FIND_LABEL}
          placeholder={FIND_PLACEHOLDER}
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
      </FindBox>
    </div>
  );
}
