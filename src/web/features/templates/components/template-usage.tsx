import { Link } from 'react-aria-components';
import { Spinner } from '../../../components/ui/spinner';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { errorMessage } from '../../../lib/errors';
import { useTemplateUsage } from '../api/templates';

/** How the app links to what uses a template. */
export interface TemplateLinks {
  /** The app URL of a page (`demo/about/index`). */
  pageHref: (path: string) => string;
  /** The app URL of a site or section. */
  sectionHref: (path: string) => string;
  /** The app URL of the trash. */
  trashHref: string;
}

/**
 * What uses a template, as links: the pages made from it (with `regions`: those holding content there) and the
 * sites and sections whose new landing pages use it, and those of them in the trash. Shown where the service refused
 * a change (TEMPLATE_IN_USE).
 */
export function TemplateUsageList({
  name,
  regions,
  links,
  title,
}: {
  name: string;
  regions?: readonly string[];
  links: TemplateLinks;
  title: string;
}) {
  const usage = useTemplateUsage(name, regions, true);
  if (usage.isPending) {
    return (
      <p role="status" className="template-usage__loading">
        <Spinner /> Looking up what uses “{name}”…
      </p>
    );
  }
  if (usage.isError) {
    return <InlineAlert title="Could not look up what uses it">{errorMessage(usage.error)}</InlineAlert>;
  }
  const { pages, pageCount, sections, trashed, trashedCount } = usage.data;
  return (
    <div className="template-usage">
      {(pages.length > 0 || sections.length > 0) && <p className="template-usage__title">{title}</p>}
      {pages.length > 0 && (
        <>
          <p className="template-usage__count">
            {pageCount === 1 ? '1 page' : `${pageCount} pages`}
            {pageCount > pages.length ? ` (the first ${pages.length} by address)` : ''}:
          </p>
          <ul className="template-usage__list" aria-label="Pages">
            {pages.map((p) => (
              <li key={p.path}>
                <Link href={links.pageHref(p.path)}>{p.title}</Link> <code>{p.path}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {sections.length > 0 && (
        <>
          <p className="template-usage__count">
            {sections.length === 1 ? '1 site or section makes' : `${sections.length} sites and sections make`} new
            landing pages with it:
          </p>
          <ul className="template-usage__list" aria-label="Sites and sections">
            {sections.map((s) => (
              <li key={s.path}>
                <Link href={links.sectionHref(s.path)}>{s.title}</Link> <code>{s.path}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {trashed.length > 0 && (
        <>
          <p className="template-usage__count">
            {trashedCount === 1 ? '1 item in the trash' : `${trashedCount} items in the trash`} (delete for good in the{' '}
            <Link href={links.trashHref}>Trash</Link>, or restore and change):
          </p>
          <ul className="template-usage__list" aria-label="In the trash">
            {trashed.map((t) => (
              <li key={`${t.trashId}:${t.kind}:${t.title}`}>
                {t.title} <span className="template-usage__from">deleted from</span> <code>{t.deletedFrom}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
