import { lazy, Suspense, useDeferredValue, useMemo, useState } from 'react';
import { Link } from 'react-aria-components';
import type { SiteSummary } from '../../../../shared/api/sites';
import { Button } from '../../../components/ui/button';
import { PlusIcon, RefreshIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { SearchField } from '../../../components/ui/search-field';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/status';
import { useSites } from '../../../lib/queries/sites';
import './sites.css';

/** Case- and accent-insensitive match of a site's display title or name. */
function matches(site: SiteSummary, query: string): boolean {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  const q = fold(query.trim());
  return !q || fold(site.displayTitle).includes(q) || fold(site.name).includes(q);
}

/** The "New site" dialog loads when first opened (the sites screen is part of the first screen's code). */
const NewSiteDialog = lazy(() => import('./new-site-dialog'));

/**
 * The sites the signed-in user may read: the first screen after sign-in. Each card opens its site; admins create
 * sites here ("New site").
 */
export function SitesScreen({
  siteHref,
  canCreateSites = false,
  onSiteCreated,
}: {
  /** The app URL of a site's screen. */
  siteHref: (name: string) => string;
  /** Admins create sites. */
  canCreateSites?: boolean;
  /** A site was just created (the app opens it). */
  onSiteCreated?: (name: string) => void;
}) {
  const sites = useSites();
  const [filter, setFilter] = useState('');
  const [creating, setCreating] = useState(false);
  const deferredFilter = useDeferredValue(filter);
  const sorted = useMemo(
    () =>
      [...(sites.data ?? [])].sort(
        (a, b) => a.displayTitle.localeCompare(b.displayTitle) || a.name.localeCompare(b.name),
      ),
    [sites.data],
  );
  const visible = useMemo(() => sorted.filter((s) => matches(s, deferredFilter)), [sorted, deferredFilter]);
  const newSite = canCreateSites ? (
    <Button variant="primary" onPress={() => setCreating(true)}>
      <PlusIcon /> New site
    </Button>
  ) : null;

  return (
    <>
      <PageHeader
        title="Sites"
        description="Every site you may read. Each site is the root of its own tree of sections, folders and pages."
        actions={
          <>
            <Button onPress={() => void sites.refetch()} isPending={sites.isFetching && !sites.isPending}>
              <RefreshIcon /> Refresh
            </Button>
            {newSite}
          </>
        }
      />
      {sites.isPending ? (
        <LoadingState label="Loading sites…" />
      ) : sites.isError ? (
        <ErrorState
          title="Could not load the sites"
          error={sites.error}
          onRetry={() => void sites.refetch()}
          isRetrying={sites.isFetching}
        />
      ) : sorted.length === 0 ? (
        <EmptyState title="No sites yet" actions={newSite}>
          {canCreateSites
            ? 'Create the first site: it gets a home page made from a template.'
            : 'There is no site you may read yet. Ask an admin to create one.'}
        </EmptyState>
      ) : (
        <section aria-labelledby="sites-list-heading" className="sites">
          <div className="sites__toolbar">
            <h2 id="sites-list-heading" className="visually-hidden">
              Site list
            </h2>
            <SearchField
              label="Filter sites"
              value={filter}
              onChange={setFilter}
              placeholder="Filter by title or name"
            />
            <p className="sites__count" role="status">
              {visible.length === sorted.length
                ? `${sorted.length} ${sorted.length === 1 ? 'site' : 'sites'}`
                : `${visible.length} of ${sorted.length} sites`}
            </p>
          </div>
          {visible.length === 0 ? (
            <EmptyState title="No site matches">
              Nothing matches “{filter.trim()}”. Clear the filter to see every site.
            </EmptyState>
          ) : (
            <ul className="sites__list" aria-label="Sites">
              {visible.map((site) => (
                <li key={site.id} className="site-card">
                  <h3 className="site-card__title">
                    {/* The link covers the whole card (see sites.css): a click anywhere on it opens the site. */}
                    <Link href={siteHref(site.name)} className="site-card__link">
                      {site.displayTitle || site.name}
                    </Link>
                  </h3>
                  <dl className="site-card__facts">
                    <div>
                      <dt>Name</dt>
                      <dd>
                        <code>{site.name}</code>
                      </dd>
                    </div>
                  </dl>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {creating && (
        <Suspense fallback={null}>
          <NewSiteDialog
            onClose={() => setCreating(false)}
            onCreated={(site) => {
              setCreating(false);
              onSiteCreated?.(site.siteName);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
