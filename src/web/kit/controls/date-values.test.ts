import { CalendarDate, CalendarDateTime } from '@internationalized/date';
import { describe, expect, it } from 'vitest';
import { checkFieldValue, type FieldDef } from '../../../shared/registry';
import { formatServerDate, formatServerDateTime, parseServerDate, parseServerDateTime } from './date-values';

const DATE_DEF: FieldDef = { key: 'd', label: 'Date', format: 'date', editor: 'date' };
const DATETIME_DEF: FieldDef = { key: 't', label: 'Time', format: 'datetime', editor: 'datetime' };

describe('server dates (MM/DD/YYYY)', () => {
  it('reads a server date and writes it back identically', () => {
    for (const v of ['05/01/2026', '12/31/1999', '02/29/2024', '01/01/0999']) {
      const d = parseServerDate(v);
      expect(d).not.toBeNull();
      expect(formatServerDate(d!)).toBe(v);
    }
    expect(parseServerDate('05/01/2026')?.toString()).toBe('2026-05-01');
  });

  it('refuses what the server refuses: other orders, impossible days, padding', () => {
    for (const v of ['2026-05-01', '5/1/2026', '02/30/2026', '02/29/2023', '13/01/2026', '00/10/2026', ' 05/01/2026']) {
      expect(parseServerDate(v), v).toBeNull();
      expect(checkFieldValue(DATE_DEF, v), v).not.toBeNull();
    }
  });

  it('writes dates the server accepts', () => {
    const written = formatServerDate(new CalendarDate(2026, 3, 7));
    expect(written).toBe('03/07/2026');
    expect(checkFieldValue(DATE_DEF, written)).toBeNull();
  });
});

describe('server date-times (YYYY-MM-DD hh:mm:ss.s)', () => {
  it('reads the fraction as milliseconds and keeps how it was written', () => {
    const a = parseServerDateTime('2026-05-01 13:30:00.25')!;
    expect(a.value.millisecond).toBe(250);
    expect(a.fraction).toBe('.25');
    expect(parseServerDateTime('2026-05-01 13:30:00.005')!.value.millisecond).toBe(5);
    const none = parseServerDateTime('2026-05-01 13:30:00')!;
    expect(none.fraction).toBe('');
    expect(none.value.millisecond).toBe(0);
  });

  it('writes back an unchanged value identically, whatever its fraction', () => {
    for (const v of [
      '2026-05-01 13:30:00.25',
      '2026-05-01 13:30:00.250',
      '2026-05-01 13:30:00',
      '2026-05-01 00:00:59.9',
    ]) {
      const parsed = parseServerDateTime(v)!;
      expect(formatServerDateTime(parsed.value, parsed)).toBe(v);
    }
  });

  it('keeps the stored fraction when only the date or the minutes change', () => {
    const previous = parseServerDateTime('2026-05-01 13:30:07.25')!;
    expect(formatServerDateTime(previous.value.set({ day: 20 }), previous)).toBe('2026-05-20 13:30:07.25');
    expect(formatServerDateTime(previous.value.set({ minute: 45 }), previous)).toBe('2026-05-01 13:45:07.25');
    const bare = parseServerDateTime('2026-05-01 13:30:00')!;
    expect(formatServerDateTime(bare.value.set({ month: 6 }), bare)).toBe('2026-06-01 13:30:00');
  });

  it('writes a new value with the shortest fraction', () => {
    expect(formatServerDateTime(new CalendarDateTime(2026, 5, 1, 13, 30))).toBe('2026-05-01 13:30:00.0');
    expect(formatServerDateTime(new CalendarDateTime(2026, 5, 1, 13, 30, 5, 120))).toBe('2026-05-01 13:30:05.12');
    expect(formatServerDateTime(new CalendarDateTime(2026, 5, 1, 13, 30, 5, 7))).toBe('2026-05-01 13:30:05.007');
  });

  it('writes only values the server accepts and refuses what it refuses', () => {
    for (const dt of [new CalendarDateTime(2026, 5, 1, 13, 30), new CalendarDateTime(1, 1, 1, 0, 0, 0, 999)]) {
      const written = formatServerDateTime(dt);
      expect(checkFieldValue(DATETIME_DEF, written), written).toBeNull();
    }
    for (const v of [
      '2026-05-01T13:30:00',
      '2026-05-01 24:00:00',
      '2026-02-30 10:00:00',
      '2026-05-01 13:30',
      '2026-05-01 13:30:00.1234',
    ]) {
      expect(parseServerDateTime(v), v).toBeNull();
      expect(checkFieldValue(DATETIME_DEF, v), v).not.toBeNull();
    }
  });
});
