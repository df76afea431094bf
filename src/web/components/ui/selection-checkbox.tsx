import { Checkbox as AriaCheckbox } from 'react-aria-components';
import { CheckIcon } from './icons';

/**
 * The checkbox that selects a row, card or every row of a collection (react-aria's `slot="selection"`: it takes
 * its state and label from the GridList or Table around it).
 */
export function SelectionCheckbox({
  className,
  'aria-label': ariaLabel,
}: {
  className?: string;
  'aria-label'?: string;
}) {
  return (
    <AriaCheckbox slot="selection" className={className ? `checkbox ${className}` : 'checkbox'} aria-label={ariaLabel}>
      {({ isSelected, isIndeterminate }) => (
        <span className="checkbox__box" aria-hidden="true">
          {isSelected ? <CheckIcon /> : isIndeterminate ? '–' : null}
        </span>
      )}
    </AriaCheckbox>
  );
}
