import type { ReactNode } from 'react';
import { Checkbox as AriaCheckbox, type CheckboxProps as AriaCheckboxProps } from 'react-aria-components';
import { CheckIcon } from './icons';

export interface CheckboxProps extends Omit<AriaCheckboxProps, 'className' | 'children'> {
  children: ReactNode;
}

/** A labelled checkbox (react-aria: keyboard, focus ring, form value). */
export function Checkbox({ children, ...props }: CheckboxProps) {
  return (
    <AriaCheckbox {...props} className="checkbox">
      {({ isSelected }) => (
        <>
          <span className="checkbox__box" aria-hidden="true">
            {isSelected && <CheckIcon />}
          </span>
          <span className="checkbox__label">{children}</span>
        </>
      )}
    </AriaCheckbox>
  );
}
