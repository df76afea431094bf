import { useId, type ReactNode } from 'react';

/** Ids a custom control wires itself to: `aria-labelledby={labelId}`, `aria-describedby={describedBy}`. */
export interface FieldShellIds {
  labelId: string;
  /** The description and error ids (space-separated), or undefined when there are none. */
  describedBy: string | undefined;
  isInvalid: boolean;
}

/**
 * Label, description and error around a control that is not a react-aria field (rich text, code, builders,
 * pickers). The control receives the ids to name and describe itself. `group` renders a fieldset/legend, for
 * controls made of several inputs (a form builder, a date and a time).
 */
export function FieldShell({
  label,
  description,
  errorMessage,
  isRequired,
  group,
  className,
  children,
}: {
  label: string;
  description?: ReactNode;
  errorMessage?: string;
  isRequired?: boolean;
  group?: boolean;
  className?: string;
  children: (ids: FieldShellIds) => ReactNode;
}) {
  const labelId = useId();
  const descriptionId = useId();
  const errorId = useId();
  const describedBy =
    [description ? descriptionId : '', errorMessage ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const ids: FieldShellIds = { labelId, describedBy, isInvalid: Boolean(errorMessage) };
  const Root = group ? 'fieldset' : 'div';
  const LabelTag = group ? 'legend' : 'span';
  return (
    <Root
      className={['field-shell', className ?? ''].filter(Boolean).join(' ')}
      data-invalid={errorMessage ? true : undefined}
      aria-describedby={group ? describedBy : undefined}
    >
      <span className="field__label-row">
        <LabelTag id={labelId} className="field__label field-shell__label">
          {label}
        </LabelTag>
        {isRequired && (
          <span className="field__required" aria-hidden="true">
            *
          </span>
        )}
      </span>
      {children(ids)}
      {description && (
        <span id={descriptionId} className="field__description">
          {description}
        </span>
      )}
      {errorMessage && (
        <span id={errorId} className="field__error" role="alert">
          {errorMessage}
        </span>
      )}
    </Root>
  );
}
