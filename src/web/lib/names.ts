/** Longest name suggested from a title (people may type a longer one). */
const SUGGESTED_NAME_LENGTH = 60;

/**
 * A name for the address suggested from a display title: lower case, accents dropped, anything but letters and
 * digits turned into single dashes ("Press & Media Kit" → "press-media-kit").
 */
export function nameFromTitle(title: string): string {
  return title
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SUGGESTED_NAME_LENGTH)
    .replace(/-+$/, '');
}
