import type { ReactNode } from 'react';
import { Switch as AriaSwitch, type SwitchProps as AriaSwitchProps } from 'react-aria-components';

export interface SwitchProps extends Omit<AriaSwitchProps, 'className' | 'children'> {
  children: ReactNode;
}

/** An on/off switch with its label (react-aria: role="switch", Space toggles, focus ring). */
export function Switch({ children, ...props }: SwitchProps) {
  return (
    <AriaSwitch {...props} className="switch">
      <span className="switch__track" aria-hidden="true">
        <span className="switch__thumb" />
      </span>
      <span className="switch__label">{children}</span>
    </AriaSwitch>
  );
}
