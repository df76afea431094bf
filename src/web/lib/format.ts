const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function format(iso: string, formatter: Intl.DateTimeFormat): string {
  // The reference system writes `+0000` offsets; Date parses them in V8, but normalise to be safe everywhere.
  // Date-time fields are `YYYY-MM-DD hh:mm:ss.s` (local time, a space for the `T`).
  const date = new Date(iso.replace(/([+-]\d{2})(\d{2})$/, '$1:$2').replace(/^(\d{4}-\d{2}-\d{2}) (?=\d)/, '$1T'));
  return Number.isNaN(date.getTime()) ? iso : formatter.format(date);
}

/** A timestamp of the service in the reader's locale; the raw text when it is not a date. */
export function formatDateTime(iso: string): string {
  return format(iso, dateTime);
}

/** The day of a timestamp of the service, in the reader's locale (narrow columns). */
export function formatDate(iso: string): string {
  return format(iso, dateOnly);
}

/** A size in bytes for people: "930 B", "12.4 KB", "3.1 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
