import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { Dialog, Form, Heading, Modal as AriaModal, ModalOverlay } from 'react-aria-components';
import { errorMessage, errorTitle } from '../../lib/errors';
import { Button } from './button';
import { InlineAlert } from './inline-alert';

interface ModalShellProps {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  /** While true the dialog cannot be dismissed (a request is running). */
  isBusy?: boolean;
  role?: 'dialog' | 'alertdialog';
  size?: ModalSize;
  /** Accessible name when the dialog has no `Heading slot="title"` of its own. */
  'aria-label'?: string;
  children: ReactNode;
}

/** Widths of a modal: sm/md for confirmations and short forms, lg/xl for pickers and editors. */
export type ModalSize = 'sm' | 'md' | 'lg' | 'xl';

/** Modal overlay + dialog: focus is trapped and restored, Escape and an outside click close it unless busy. */
function ModalShell({
  isOpen,
  onOpenChange,
  isBusy,
  role = 'dialog',
  size = 'md',
  'aria-label': ariaLabel,
  children,
}: ModalShellProps) {
  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!isBusy || open) onOpenChange(open);
      }}
      isDismissable={!isBusy}
      isKeyboardDismissDisabled={isBusy}
      className="modal-overlay"
    >
      <AriaModal className={`modal modal--${size}`}>
        <Dialog role={role} className="dialog" aria-label={ariaLabel}>
          {children}
        </Dialog>
      </AriaModal>
    </ModalOverlay>
  );
}

export interface FormDialogProps {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  title: string;
  /** One sentence under the title saying what the form does. */
  description?: ReactNode;
  submitLabel: string;
  onSubmit: () => void;
  isPending?: boolean;
  /** Server errors for named fields (react-aria shows them on the field until it changes). */
  validationErrors?: Record<string, string>;
  /** An error that belongs to no single field, shown above the buttons. */
  error?: unknown;
  variant?: 'primary' | 'danger';
  /** The submit button stays disabled (e.g. until a choice is made). */
  isSubmitDisabled?: boolean;
  children: ReactNode;
}

/** A dialog holding a form: Enter submits, Escape cancels, the submit button shows progress. */
export function FormDialog({
  isOpen,
  onOpenChange,
  title,
  description,
  submitLabel,
  onSubmit,
  isPending,
  validationErrors,
  error,
  variant = 'primary',
  isSubmitDisabled,
  children,
}: FormDialogProps) {
  const descriptionId = useId();
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!isPending && !isSubmitDisabled) onSubmit();
  };
  return (
    <ModalShell isOpen={isOpen} onOpenChange={onOpenChange} isBusy={isPending}>
      <Heading slot="title" className="dialog__title">
        {title}
      </Heading>
      {description && (
        <p id={descriptionId} className="dialog__description">
          {description}
        </p>
      )}
      <Form
        className="dialog__form"
        onSubmit={handleSubmit}
        validationErrors={validationErrors}
        aria-describedby={description ? descriptionId : undefined}
      >
        {children}
        {error !== undefined && error !== null && (
          <InlineAlert title={errorTitle(error)}>{errorMessage(error)}</InlineAlert>
        )}
        <div className="dialog__actions">
          <Button variant="quiet" onPress={() => onOpenChange(false)} isDisabled={isPending}>
            Cancel
          </Button>
          <Button type="submit" variant={variant} isPending={isPending} isDisabled={isSubmitDisabled}>
            {submitLabel}
          </Button>
        </div>
      </Form>
    </ModalShell>
  );
}

export interface ConfirmDialogProps {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  isPending?: boolean;
  /** The destructive button stays disabled (e.g. until the user ticks an explicit confirmation). */
  isConfirmDisabled?: boolean;
  error?: unknown;
}

/**
 * Confirmation of a destructive action (role="alertdialog"). Focus starts on Cancel, so Enter never destroys
 * by accident; the destructive button names the action ("Delete user"), not "OK". When the destructive button
 * turns disabled while it has the focus (the service refused, say), the focus goes back to Cancel, not to the page.
 */
export function ConfirmDialog({
  isOpen,
  onOpenChange,
  title,
  children,
  confirmLabel,
  onConfirm,
  isPending,
  isConfirmDisabled,
  error,
}: ConfirmDialogProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const focused = document.activeElement;
    if (isConfirmDisabled && (focused === confirm.current || focused === document.body)) cancel.current?.focus();
  }, [isConfirmDisabled]);
  return (
    <ModalShell isOpen={isOpen} onOpenChange={onOpenChange} isBusy={isPending} role="alertdialog" size="sm">
      <Heading slot="title" className="dialog__title">
        {title}
      </Heading>
      <div className="dialog__description dialog__body">{children}</div>
      {error !== undefined && error !== null && (
        <InlineAlert title={errorTitle(error)}>{errorMessage(error)}</InlineAlert>
      )}
      <div className="dialog__actions">
        <Button ref={cancel} variant="quiet" onPress={() => onOpenChange(false)} isDisabled={isPending} autoFocus>
          Cancel
        </Button>
        <Button ref={confirm} variant="danger" onPress={onConfirm} isPending={isPending} isDisabled={isConfirmDisabled}>
          {confirmLabel}
        </Button>
      </div>
    </ModalShell>
  );
}

export interface ModalProps {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  title: string;
  /** One sentence under the title. */
  description?: ReactNode;
  size?: ModalSize;
  /** While true the modal cannot be dismissed. */
  isBusy?: boolean;
  /** Buttons at the bottom, right-aligned (a "Close" or "Cancel" is the caller's to add). */
  footer?: ReactNode;
  children: ReactNode;
}

/**
 * A plain modal (pickers, previews, multi-step choices): title, body and a footer. Focus is trapped inside and
 * returns to what opened it; Escape and an outside click close it unless busy.
 */
export function Modal({ isOpen, onOpenChange, title, description, size = 'lg', isBusy, footer, children }: ModalProps) {
  const descriptionId = useId();
  return (
    <ModalShell isOpen={isOpen} onOpenChange={onOpenChange} isBusy={isBusy} size={size}>
      <Heading slot="title" className="dialog__title">
        {title}
      </Heading>
      {description && (
        <p id={descriptionId} className="dialog__description">
          {description}
        </p>
      )}
      <div className="dialog__body">{children}</div>
      {footer && <div className="dialog__actions">{footer}</div>}
    </ModalShell>
  );
}
