const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * When an entry of the trash is deleted for good, for people: "Deleted for good in 12 days" (whole days, rounded
 * up: an entry deleted a moment ago with 30 days to wait says 30), "… within a day" in its last day, and "… soon"
 * once its time has passed (the server's sweep runs hourly).
 */
export function purgeTimeText(purgeAt: string, now: number): string {
  const left = Date.parse(purgeAt) - now;
  if (Number.isNaN(left)) return 'Deleted for good later';
  if (left <= 0) return 'Deleted for good soon';
  if (left <= DAY_MS) return 'Deleted for good within a day';
  return `Deleted for good in ${Math.ceil(left / DAY_MS)} days`;
}
