import type { TargetWindow } from '../../../../shared/api/folders';
import type { SelectOption } from '../../../components/ui/select';

/** Where a navigation entry opens, in words. */
export const TARGET_WINDOW_OPTIONS: readonly SelectOption<TargetWindow>[] = [
  { id: '_self', label: 'Same window', description: 'Opens in place (_self).' },
  { id: '_blank', label: 'New window or tab', description: 'Opens beside the site (_blank).' },
  { id: '_top', label: 'Whole window', description: 'Replaces any frames around the site (_top).' },
];

/** A target window in words. */
export function targetWindowLabel(value: string): string {
  return TARGET_WINDOW_OPTIONS.find((o) => o.id === value)?.label ?? value;
}
