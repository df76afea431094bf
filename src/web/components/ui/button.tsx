import type { ReactNode, Ref } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'quiet';

export interface ButtonProps extends Omit<AriaButtonProps, 'className' | 'children'> {
  variant?: ButtonVariant;
  size?: 'md' | 'sm';
  /** Square button holding only an icon; give it an `aria-label`. */
  iconOnly?: boolean;
  className?: string;
  children?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

/** The app's button (react-aria: press, keyboard, focus ring, pending state with a spinner announced by react-aria). */
export function Button({ variant = 'secondary', size = 'md', iconOnly, className, children, ...props }: ButtonProps) {
  const classes = ['btn', `btn--${variant}`, `btn--${size}`, iconOnly ? 'btn--icon' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <AriaButton {...props} className={classes}>
      {({ isPending }) => (
        <>
          {isPending && <Spinner />}
          <span className={isPending ? 'btn__label btn__label--pending' : 'btn__label'}>{children}</span>
        </>
      )}
    </AriaButton>
  );
}
