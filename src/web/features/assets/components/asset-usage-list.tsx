import type { UseQueryResult } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-aria-components';
import type { AssetUsage, AssetUsageEntry } from '../../../../shared/api/assets';
import { errorMessage } from '../../../lib/errors';

/**
 * What uses an asset: pages, each a link to the page editor, with the region it sits in; templates and shared
 * assets whose text refers to it, named as such (they are not pages: no page editor link).
 */
export function UsageLinks({
  usedBy,
  hrefOfPage,
}: {
  usedBy: readonly AssetUsageEntry[];
  hrefOfPage: (path: string) => string;
}) {
  return (
    <ul className="asset-usage">
      {usedBy.map((u) => (
        <li key={`${u.kind ?? 'page'}:${u.path}#${u.region}`}>
          {u.kind ? (
            <span className="asset-usage__link">
              {u.kind === 'template' ? 'Template' : 'Shared asset'} {u.displayName}
            </span>
          ) : (
            <Link href={hrefOfPage(u.path)} className="asset-usage__link">
              {u.displayName}
            </Link>
          )}{' '}
          <span className="asset-usage__where">
            {u.path}
            {u.region ? ` · region ${u.region}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** "Where it is used": the pages linking the asset (loaded with the details). */
export function AssetUsageList({
  usage,
  hrefOfPage,
}: {
  usage: UseQueryResult<AssetUsage>;
  hrefOfPage: (path: string) => string;
}) {
  const headingId = useId();
  const usedBy = usage.data?.usedBy ?? [];
  return (
    <section className="asset-section" aria-labelledby={headingId}>
      <h3 id={headingId} className="asset-section__title">
        Where it is used {usage.data && <span className="badge">{usedBy.length}</span>}
      </h3>
      {usage.isPending ? (
        <p className="asset-section__muted">Looking for pages that use it…</p>
      ) : usage.isError ? (
        <p className="asset-section__muted">Could not tell: {errorMessage(usage.error)}</p>
      ) : usedBy.length === 0 ? (
        <p className="asset-section__muted">No page uses it.</p>
      ) : (
        <UsageLinks usedBy={usedBy} hrefOfPage={hrefOfPage} />
      )}
    </section>
  );
}
