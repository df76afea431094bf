import type { ReactNode } from 'react';
import { ProgressBar as AriaProgressBar } from 'react-aria-components';

/**
 * A labelled progress bar (react-aria: role progressbar with value and value text) drawn as a thin track; the
 * text under it is `valueLabel` plus whatever `detail` adds ("· 1.2 MB/s"). Indeterminate while the amount of
 * work left is unknown.
 */
export function ProgressBar({
  label,
  value,
  maxValue = 100,
  valueLabel,
  detail,
  isIndeterminate,
  className,
}: {
  /** Accessible name ("Uploading logo.png"). */
  label: string;
  value: number;
  maxValue?: number;
  /** What the value means in words ("400 KB of 1.2 MB"); shown and announced. */
  valueLabel?: string;
  detail?: ReactNode;
  isIndeterminate?: boolean;
  className?: string;
}) {
  return (
    <AriaProgressBar
      className={['progress', className ?? ''].filter(Boolean).join(' ')}
      aria-label={label}
      value={value}
      maxValue={maxValue}
      valueLabel={valueLabel}
      isIndeterminate={isIndeterminate}
    >
      {({ percentage }) => (
        <>
          <span className={isIndeterminate ? 'progress__track progress__track--busy' : 'progress__track'}>
            <span className="progress__fill" style={{ width: `${isIndeterminate ? 100 : (percentage ?? 0)}%` }} />
          </span>
          {(valueLabel || detail) && (
            <span className="progress__text">
              {valueLabel}
              {detail}
            </span>
          )}
        </>
      )}
    </AriaProgressBar>
  );
}
