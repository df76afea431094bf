import type { ReactNode } from 'react';
import { ToggleButton, ToggleButtonGroup, type Key } from 'react-aria-components';

export interface SegmentOption<K extends string> {
  id: K;
  label: string;
  icon?: ReactNode;
  /** Show only the icon (the label stays the button's accessible name). */
  iconOnly?: boolean;
}

/** A small set of exclusive choices as joined buttons (theme, grid or list); a radio group for assistive technology. */
export function SegmentedControl<K extends string>({
  label,
  options,
  value,
  onChange,
}: {
  /** Accessible name of the group. */
  label: string;
  options: readonly SegmentOption<K>[];
  value: K;
  onChange: (value: K) => void;
}) {
  return (
    <ToggleButtonGroup
      aria-label={label}
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[value]}
      onSelectionChange={(keys: Set<Key>) => {
        const [next] = [...keys];
        if (next !== undefined) onChange(String(next) as K);
      }}
      className="segmented"
    >
      {options.map((o) => (
        <ToggleButton
          key={o.id}
          id={o.id}
          aria-label={o.iconOnly ? o.label : undefined}
          className={o.iconOnly ? 'segmented__option' : 'segmented__option segmented__option--labelled'}
        >
          {o.icon}
          {!o.iconOnly && o.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
