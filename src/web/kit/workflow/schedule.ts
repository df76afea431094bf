import {
  getLocalTimeZone,
  now,
  parseAbsolute,
  toCalendarDateTime,
  toZoned,
  type CalendarDateTime,
} from '@internationalized/date';
import { formatDateTime } from '../../lib/format';

/**
 * Scheduled publishing in the browser: the server holds `publishAt` / `unpublishAt` as UTC instants; people pick
 * a wall-clock date and time in their own time zone, which is named beside the field.
 */

/** What a save of the schedule sends: a time (ISO 8601 with `Z`) sets it, null clears it, absent leaves it. */
export interface ScheduleChange {
  publishAt?: string | null;
  unpublishAt?: string | null;
}

/** The browser's time zone (IANA name, e.g. `Europe/Berlin`). */
export function localTimeZone(): string {
  return getLocalTimeZone();
}

/** An offset in minutes as `UTC+01:00` / `UTC-05:30`. */
function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * The time zone as people read it, with its offset at `at` (summer and winter differ):
 * `Europe/Berlin (UTC+01:00)`.
 */
export function timeZoneLabel(at: CalendarDateTime | null, zone = localTimeZone()): string {
  const instant = at ? toZoned(at, zone) : now(zone);
  return `${zone} (${offsetText(Math.round(instant.offset / 60_000))})`;
}

/** A stored time (ISO 8601, UTC) as the wall-clock date and time of `zone`, to the minute; null when unreadable. */
export function toLocalDateTime(iso: string | undefined | null, zone = localTimeZone()): CalendarDateTime | null {
  if (!iso) return null;
  try {
    return toCalendarDateTime(parseAbsolute(iso, zone)).set({ second: 0, millisecond: 0 });
  } catch {
    return null;
  }
}

/** A wall-clock date and time of `zone` as the instant the server takes (ISO 8601 with `Z`). */
export function toInstant(value: CalendarDateTime, zone = localTimeZone()): string {
  return toZoned(value, zone).toDate().toISOString();
}

/** Whether two stored times name the same minute (what the picker can show), either absent counting as null. */
function sameMinute(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return Math.floor(Date.parse(a) / 60_000) === Math.floor(Date.parse(b) / 60_000);
}

/**
 * What changed between the stored schedule and the one picked: only those members are sent (a time kept as it
 * was is not sent again, so its seconds survive).
 */
export function scheduleChange(
  stored: { publishAt?: string; unpublishAt?: string },
  picked: { publishAt: CalendarDateTime | null; unpublishAt: CalendarDateTime | null },
  zone = localTimeZone(),
): ScheduleChange {
  const change: ScheduleChange = {};
  for (const key of ['publishAt', 'unpublishAt'] as const) {
    const value = picked[key];
    const next = value ? toInstant(value, zone) : null;
    if (!sameMinute(stored[key], next)) change[key] = next;
  }
  return change;
}

/**
 * The schedule in words, for the workflow controls and the listings: `Scheduled: publishes <time>` and/or
 * `unpublishes <time>` (the reader's locale and time zone); null when nothing is scheduled.
 */
export function scheduleLine(schedule: { publishAt?: string; unpublishAt?: string }): string | null {
  const parts = [
    schedule.publishAt && `publishes ${formatDateTime(schedule.publishAt)}`,
    schedule.unpublishAt && `unpublishes ${formatDateTime(schedule.unpublishAt)}`,
  ].filter(Boolean);
  return parts.length ? `Scheduled: ${parts.join(', ')}` : null;
}
