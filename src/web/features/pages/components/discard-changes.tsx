import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';

/**
 * "Discard changes", asked first: the dialog says what goes (every unsaved change and the copy kept in this
 * browser) before anything does. Once discarded, focus goes to the page's heading (the button itself turns off).
 */
export function DiscardChangesButton({
  changeCount,
  itemLabel,
  isDisabled,
  onDiscard,
}: {
  changeCount: number;
  itemLabel: string;
  isDisabled: boolean;
  onDiscard: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const changes = changeCount === 1 ? '1 unsaved change' : `${changeCount} unsaved changes`;
  return (
    <>
      <Button variant="quiet" size="sm" onPress={() => setAsking(true)} isDisabled={isDisabled}>
        Discard changes
      </Button>
      <ConfirmDialog
        isOpen={asking}
        onOpenChange={setAsking}
        title={`Discard ${changes}?`}
        confirmLabel="Discard changes"
        onConfirm={() => {
          setAsking(false);
          onDiscard();
          // The button is off now that nothing is unsaved: the screen's heading takes the focus.
          requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-screen-heading]')?.focus());
        }}
      >
        <p>
          Your {changes} to {itemLabel} go, and so does the copy of them kept in this browser. The page goes back to how
          it was last saved. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
