import type { ReactNode } from 'react';
import { AlertIcon } from './icons';

/**
 * A message inside a form or panel. Errors use role="alert" so screen readers announce them as they appear;
 * pass `id` and point the form's aria-describedby at it when it explains the whole form.
 */
export function InlineAlert({
  tone = 'danger',
  title,
  children,
  id,
}: {
  tone?: 'danger' | 'info';
  title?: string;
  children: ReactNode;
  id?: string;
}) {
  return (
    <div id={id} className={`inline-alert inline-alert--${tone}`} role={tone === 'danger' ? 'alert' : 'status'}>
      <AlertIcon className="inline-alert__icon" />
      <div>
        {title && <p className="inline-alert__title">{title}</p>}
        <div className="inline-alert__body">{children}</div>
      </div>
    </div>
  );
}
