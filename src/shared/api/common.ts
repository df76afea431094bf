import { z } from 'zod';

/** Ids are `<number>-<number>-<number>`: host, object type, sequence (e.g. `16777215-101-710`). */
export const ID_PATTERN = /^\d+-\d+-\d+$/;
export const Id = z.string().regex(ID_PATTERN, 'must be of the form <number>-<number>-<number>');

/** The answer of every DELETE. */
export const DeletedMessage = z.object({ message: z.literal('Deleted') });
export type DeletedMessage = z.infer<typeof DeletedMessage>;

/** A `{message}` answer of bulk operations. */
export const Message = z.object({ message: z.string() });
export type Message = z.infer<typeof Message>;

/** `{name, href}`: a child entry of a folder listing. */
export const Link = z.object({ name: z.string(), href: z.string() });
export type Link = z.infer<typeof Link>;

/** Maximum length of one path segment (a site, folder, section, page or asset name). */
export const MAX_NAME_LENGTH = 255;

/**
 * A valid name: any Unicode text without `/`, control characters or leading/trailing spaces,
 * not `.` or `..`, at most 255 characters.
 */
export const ItemName = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
  .refine((s) => !s.includes('/'), 'must not contain "/"')
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f-\u009f]/.test(s), 'must not contain control characters')
  .refine((s) => s.trim() === s, 'must not start or end with spaces')
  .refine((s) => s !== '.' && s !== '..', 'must not be "." or ".."');

/** Strict ISO-like timestamp of the reference system: `YYYY-MM-DDThh:mm:ss.SSS+0000`. */
export const Timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/);

/**
 * A comma-separated list of one or more items matching `item` (a pattern without anchors), as one pattern: the
 * OpenAPI document then states the whole rule of a list-valued query parameter.
 */
export function commaListPattern(item: string): RegExp {
  return new RegExp(`^(?:${item})(?:,(?:${item}))*$`);
}
