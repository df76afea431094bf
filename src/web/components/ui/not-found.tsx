import type { ReactNode } from 'react';
import { Link } from 'react-aria-components';
import { PageHeader } from './page-header';

/**
 * The app's one "Not found": what is missing, in a sentence, and a way back. Screens use it for an address the
 * app has no screen for and for an item that is not (or no longer) there.
 */
export function NotFound({
  children,
  backHref,
  backLabel,
}: {
  children: ReactNode;
  backHref: string;
  backLabel: string;
}) {
  return (
    <>
      <PageHeader title="Not found" description={children} />
      <p>
        <Link href={backHref}>{backLabel}</Link>
      </p>
    </>
  );
}
