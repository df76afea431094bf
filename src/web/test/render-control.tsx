import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { vi } from 'vitest';
import type { FieldDef } from '../../shared/registry';
import type { FieldControlProps } from '../kit/field-control';

/**
 * Renders a kit control the way the kit's form holds it: the host keeps the value and hands every change back.
 * `onChange` records what the control wrote; `setValue` replaces the value from outside (a form reset).
 */
export function renderControl(
  Control: (props: FieldControlProps) => ReactNode,
  def: FieldDef,
  initial: string | null,
  extra: Partial<FieldControlProps> = {},
) {
  const onChange = vi.fn<(value: string | null) => void>();
  let setFromOutside: (value: string | null) => void = () => undefined;
  function Host() {
    const [value, setValue] = useState(initial);
    setFromOutside = setValue;
    return (
      <Control
        def={def}
        value={value}
        onChange={(v) => {
          onChange(v);
          setValue(v);
        }}
        {...extra}
      />
    );
  }
  const user = userEvent.setup();
  const view = render(<Host />);
  return {
    ...view,
    onChange,
    user,
    /** The last value the control wrote. */
    last: () => onChange.mock.lastCall?.[0],
    setValue: (value: string | null) => act(() => setFromOutside(value)),
  };
}
