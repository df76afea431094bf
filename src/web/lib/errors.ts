import { isApiError, type ApiError } from '../../shared/api/client';

/** A sentence a person understands for any failure (ApiError detail, or a generic one). */
export function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.detail || error.title;
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}

/** A short title for a failure, for toasts and error panels. */
export function errorTitle(error: unknown): string {
  if (!isApiError(error)) return 'Something went wrong';
  switch (error.status) {
    case 0:
      return error.code === 'ABORTED' ? 'Cancelled' : 'No connection';
    case 403:
      return 'Not allowed';
    case 404:
      return 'Not found';
    case 409:
      return 'Conflict';
    case 412:
      return 'Changed by someone else';
    case 429:
      return 'Too many attempts';
    default:
      return error.status >= 500 ? 'Server error' : error.title;
  }
}

/** A field's problem as the service words it ("must not be empty") as a sentence: "The name must not be empty." */
export function fieldSentence(message: string, label?: string): string {
  const text = label ? `${label} ${message}` : message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * Field errors of a 400 keyed by form field name, for react-aria's `<Form validationErrors>`, each a sentence.
 * `fields` maps a server path (`body.password`, `params.name`) to the form field it belongs to; `labels` names a
 * field the way its sentence starts ("The name").
 */
export function fieldErrorsOf(
  error: unknown,
  fields: Record<string, string>,
  labels: Record<string, string> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isApiError(error)) return out;
  for (const e of error.errors) {
    const field = fields[e.path];
    if (field && !out[field]) out[field] = fieldSentence(e.message, labels[field]);
  }
  return out;
}

/** True when every field error of `error` was placed on a form field (so no extra banner is needed). */
export function allFieldErrorsPlaced(error: ApiError, fields: Record<string, unknown>): boolean {
  return error.errors.length > 0 && error.errors.every((e) => e.path in fields);
}
