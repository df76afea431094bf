const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A timestamp of the service in the reader's locale; the raw text when it is not a date. */
export function formatDateTime(iso: string): string {
  // The reference system writes `+0000` offsets; Date parses them in V8, but normalise to be safe everywhere.
  const date = new Date(iso.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}
