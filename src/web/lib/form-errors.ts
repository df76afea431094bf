import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../../shared/api/client';
import { fieldSentence } from './errors';

/**
 * Puts the field errors of a failed request on the form's fields (`fields` maps a server path such as
 * `body.sectionInfo.displayTitle` to a field name, with the label the message starts with), focusing the first.
 * Answers whether every problem found a field — if not, the caller shows the error as a whole.
 */
export function setServerErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  fields: Record<string, { name: FieldPath<T>; label: string }>,
): boolean {
  if (!isApiError(error) || error.errors.length === 0) return false;
  let placed = 0;
  for (const e of error.errors) {
    const field = fields[e.path];
    if (!field) continue;
    setError(
      field.name,
      { type: 'server', message: fieldSentence(e.message, field.label) },
      { shouldFocus: placed === 0 },
    );
    placed++;
  }
  return placed === error.errors.length;
}
