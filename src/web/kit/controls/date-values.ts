import { CalendarDate, CalendarDateTime } from '@internationalized/date';

// The server's formats (src/shared/registry/fields.ts): `date` is MM/DD/YYYY, `datetime` is
// YYYY-MM-DD hh:mm:ss with an optional fraction of 1–3 digits. Both name a wall-clock date without a time zone,
// so they map to CalendarDate / CalendarDateTime, never to a zoned value that a browser could shift.
const DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,3})?$/;

/** True when the numbers name a real day (CalendarDate silently constrains 02/30 to 02/28). */
function isRealDay(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const d = new CalendarDate(year, month, day);
  return d.year === year && d.month === month && d.day === day;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Parses a server `date` value (MM/DD/YYYY); null when it is not one. */
export function parseServerDate(value: string): CalendarDate | null {
  const m = DATE.exec(value);
  if (!m) return null;
  const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return isRealDay(year, month, day) ? new CalendarDate(year, month, day) : null;
}

/** Writes a date the way the server stores `date` fields: MM/DD/YYYY. */
export function formatServerDate(date: { year: number; month: number; day: number }): string {
  return `${pad(date.month)}/${pad(date.day)}/${pad(date.year, 4)}`;
}

/** A server `datetime` value taken apart: the date and time, and the fraction of a second as it was written. */
export interface ServerDateTime {
  value: CalendarDateTime;
  /** The fraction exactly as stored (".25", ".250", ".0" or "" when there was none). */
  fraction: string;
}

/** Parses a server `datetime` value (YYYY-MM-DD hh:mm:ss.s); null when it is not one. */
export function parseServerDateTime(value: string): ServerDateTime | null {
  const m = DATETIME.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isRealDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  const fraction = m[7] ?? '';
  // ".25" is a quarter of a second: pad on the right to get milliseconds.
  const millisecond = fraction ? Number(fraction.slice(1).padEnd(3, '0')) : 0;
  return { value: new CalendarDateTime(year, month, day, hour, minute, second, millisecond), fraction };
}

/**
 * Writes a date and time the way the server stores `datetime` fields. When `previous` (the value it replaces)
 * had the same milliseconds, its fraction is written as it was (".25" stays ".25", no fraction stays none),
 * so changing only the date or the minutes does not rewrite the rest; otherwise the shortest fraction (".0").
 */
export function formatServerDateTime(
  value: {
    year: number;
    month: number;
    day: number;
    hour: number;
    minute: number;
    second: number;
    millisecond: number;
  },
  previous?: ServerDateTime | null,
): string {
  const fraction =
    previous && previous.value.millisecond === value.millisecond
      ? previous.fraction
      : `.${pad(value.millisecond, 3).replace(/0+$/, '') || '0'}`;
  return (
    `${pad(value.year, 4)}-${pad(value.month)}-${pad(value.day)} ` +
    `${pad(value.hour)}:${pad(value.minute)}:${pad(value.second)}${fraction}`
  );
}
