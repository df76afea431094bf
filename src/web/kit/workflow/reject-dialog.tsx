import { useState } from 'react';
import { MAX_TRANSITION_COMMENT } from '../../../shared/api/workflow';
import { FormDialog } from '../../components/ui/dialog';
import { TextAreaField } from '../../components/ui/text-area';

/**
 * Asks why an item is rejected before Reject is taken: the reason (required) goes to its author with the item.
 * The field has the focus; Ctrl+Enter (⌘+Enter) rejects, Escape cancels.
 */
export function RejectDialog({
  isOpen,
  onOpenChange,
  onReject,
}: {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  onReject: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = () => {
    const trimmed = reason.trim();
    if (!trimmed) return setError('Say why it goes back to Draft.');
    setReason('');
    setError(undefined);
    onReject(trimmed);
  };
  return (
    <FormDialog
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) setError(undefined);
        onOpenChange(open);
      }}
      title="Reject"
      description="It goes back to Draft; its author sees your reason."
      submitLabel="Reject"
      variant="danger"
      onSubmit={submit}
    >
      <TextAreaField
        label="Reason"
        isRequired
        autoFocus
        rows={3}
        maxLength={MAX_TRANSITION_COMMENT}
        value={reason}
        onChange={(value) => {
          setReason(value);
          if (error && value.trim()) setError(undefined);
        }}
        errorMessage={error}
        description="Ctrl+Enter rejects."
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            submit();
          } else e.continuePropagation();
        }}
      />
    </FormDialog>
  );
}
