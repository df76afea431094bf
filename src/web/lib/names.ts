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

/**
 * A type's label inside a sentence ("New rich text", "New RSS feed"): the first word in lower case, unless it is
 * written in capitals (an abbreviation such as RSS or HTML).
 */
export function labelInSentence(label: string): string {
  const [first = '', ...rest] = label.split(' ');
  const keep = first.length > 1 && first === first.toUpperCase();
  return [keep ? first : first.toLowerCase(), ...rest].join(' ');
}
