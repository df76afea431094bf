import type { ReactNode } from 'react';
import { errorMessage, errorTitle } from '../../lib/errors';
import { Button } from './button';
import { AlertIcon, RefreshIcon } from './icons';
import { Spinner } from './spinner';

/** A region that is loading; announced once to screen readers. */
export function LoadingState({ label }: { label: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      <Spinner size="lg" />
      <p className="state__text">{label}</p>
    </div>
  );
}

/** A region whose data could not be loaded: what happened, in words, and a way to try again. */
export function ErrorState({
  error,
  title,
  onRetry,
  isRetrying,
}: {
  error: unknown;
  /** What failed, e.g. "Could not load the sites". */
  title: string;
  onRetry?: () => void;
  isRetrying?: boolean;
}) {
  return (
    <div className="state state--error" role="alert">
      <AlertIcon className="state__icon" />
      <p className="state__title">{title}</p>
      <p className="state__text">
        <span className="state__reason">{errorTitle(error)}:</span> {errorMessage(error)}
      </p>
      {onRetry && (
        <Button onPress={onRetry} isPending={isRetrying}>
          <RefreshIcon /> Try again
        </Button>
      )}
    </div>
  );
}

/** A region with nothing to show yet, and what to do about it (`actions`: buttons that fill it). */
export function EmptyState({ title, children, actions }: { title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="state">
      <p className="state__title">{title}</p>
      {children && <div className="state__text">{children}</div>}
      {actions && <div className="state__actions">{actions}</div>}
    </div>
  );
}
