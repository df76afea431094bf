import { describe, expect, it } from 'vitest';
import { purgeTimeText } from './purge-time';

const DAY_MS = 86_400_000;
const now = Date.parse('2026-11-29T09:00:00.000Z');
const at = (ms: number) => new Date(now + ms).toISOString();

describe('purgeTimeText', () => {
  it('counts whole days left, rounded up', () => {
    expect(purgeTimeText(at(30 * DAY_MS - 5), now)).toBe('Deleted for good in 30 days');
    expect(purgeTimeText(at(11.5 * DAY_MS), now)).toBe('Deleted for good in 12 days');
    expect(purgeTimeText(at(DAY_MS + 1), now)).toBe('Deleted for good in 2 days');
  });

  it('says within a day in the last day, soon once the time has passed', () => {
    expect(purgeTimeText(at(DAY_MS), now)).toBe('Deleted for good within a day');
    expect(purgeTimeText(at(60_000), now)).toBe('Deleted for good within a day');
    expect(purgeTimeText(at(0), now)).toBe('Deleted for good soon');
    expect(purgeTimeText(at(-DAY_MS), now)).toBe('Deleted for good soon');
  });

  it('says later for a time it cannot read', () => {
    expect(purgeTimeText('not a time', now)).toBe('Deleted for good later');
  });
});
