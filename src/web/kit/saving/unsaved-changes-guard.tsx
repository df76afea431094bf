import { useContext, useEffect, useState } from 'react';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { InlineAlert } from '../../components/ui/inline-alert';
import { errorMessage, errorTitle } from '../../lib/errors';

export interface UnsavedChangesGuardProps {
  /** There are unsaved changes. */
  when: boolean;
  /** What the changes are of: "the page “Welcome”". */
  itemLabel: string;
  /** Saves; resolves true when saved (then the navigation goes on). */
  onSave?: () => Promise<boolean>;
  onDiscard?: () => void;
  /**
   * The changes are kept as a draft in this browser: leaving keeps them (offered back when the item is opened
   * again) instead of discarding them.
   */
  keptAsDraft?: boolean;
}

/** Asks the browser's own question when the tab is closed or reloaded with unsaved changes. */
function useUnloadGuard(when: boolean) {
  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);
}

/**
 * Guards unsaved changes: a navigation inside the app (links, the tree, Back) waits for the user's choice in a
 * dialog, and closing or reloading the tab asks the browser's own question. `onSave` adds "Save and leave";
 * `onDiscard` runs when the user leaves without saving (e.g. to delete a kept draft). Outside a data router
 * (component tests) only the tab is guarded.
 */
export function UnsavedChangesGuard(props: UnsavedChangesGuardProps) {
  const inDataRouter = useContext(UNSAFE_DataRouterContext) !== null;
  useUnloadGuard(props.when);
  return inDataRouter ? <NavigationGuard {...props} /> : null;
}

function NavigationGuard({ when, itemLabel, onSave, onDiscard, keptAsDraft }: UnsavedChangesGuardProps) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);

  // The changes were saved elsewhere meanwhile (Ctrl+S while the dialog opened): let the navigation go.
  useEffect(() => {
    if (blocker.state === 'blocked' && !when) blocker.proceed();
  }, [blocker, when]);

  if (blocker.state !== 'blocked') return null;

  const stay = () => {
    setError(null);
    blocker.reset();
  };
  const leave = () => {
    setError(null);
    onDiscard?.();
    blocker.proceed();
  };
  const saveAndLeave = async () => {
    if (!onSave) return;
    setSaving(true);
    setError(null);
    try {
      if (await onSave()) blocker.proceed();
      else blocker.reset();
    } catch (e) {
      setError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      isOpen
      onOpenChange={(open) => {
        if (!open) stay();
      }}
      isBusy={saving}
      size="md"
      title="Leave without saving?"
      description={
        <>
          You have unsaved changes to {itemLabel}.
          {keptAsDraft && ' If you leave, they stay in this browser as a draft, offered back when you open it again.'}
        </>
      }
      footer={
        <>
          <Button variant="quiet" onPress={stay} isDisabled={saving} autoFocus>
            Stay here
          </Button>
          {keptAsDraft ? (
            <Button onPress={() => blocker.proceed()} isDisabled={saving}>
              Leave and keep a draft
            </Button>
          ) : (
            <Button variant="danger" onPress={leave} isDisabled={saving}>
              Leave and discard changes
            </Button>
          )}
          {onSave && (
            <Button variant="primary" onPress={() => void saveAndLeave()} isPending={saving}>
              Save and leave
            </Button>
          )}
        </>
      }
    >
      {error !== null && <InlineAlert title={errorTitle(error)}>{errorMessage(error)}</InlineAlert>}
    </Modal>
  );
}
