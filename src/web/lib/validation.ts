import type { z } from 'zod';
import { fieldSentence } from './errors';

/**
 * A react-aria `validate` function from a shared zod schema, so forms check exactly what the server checks.
 * Empty values are left to `isRequired`.
 */
export function validateWith(schema: z.ZodType<unknown>, label: string) {
  return (value: string): string | null => {
    if (value === '') return null;
    const result = schema.safeParse(value);
    return result.success ? null : fieldSentence(result.error.issues[0]?.message ?? 'is invalid', label);
  };
}
