import type { ReactNode } from 'react';

/**
 * The heading of a screen. The h1 takes focus after each navigation (see app/layout), so keyboard and screen
 * reader users start at the top of the new screen.
 */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="page-header">
      <div className="page-header__text">
        <h1 tabIndex={-1} data-screen-heading="">
          {title}
        </h1>
        {description && <p className="page-header__description">{description}</p>}
      </div>
      {actions && <div className="page-header__actions">{actions}</div>}
    </div>
  );
}
