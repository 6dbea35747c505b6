import { describe, expect, it } from 'vitest';
import { formatClockTime, formatDate, formatDateTime } from '@/lib/format';

/**
 * The six formatters this module replaced, as they were written, so the output stays the same
 * in whatever locale and time zone the tests run.
 */
const before = {
  date: (iso: string): string => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString();
  },
  dateTime: (iso: string): string => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
  },
  clock: (time: number): string => {
    const date = new Date(time);
    return `${date.toLocaleTimeString([], { hour12: false })}.${String(date.getMilliseconds()).padStart(3, '0')}`;
  },
};

const STORED = [
  '2026-11-25T01:18:51.000Z',
  '2026-01-01T00:00:00.000Z',
  '2025-12-31T23:59:59.999Z',
  '2026-06-15T12:30:00+02:00',
  '2026-02-28',
];
const UNPARSEABLE = ['', 'yesterday', 'not a date', '2026-13-45T99:99:99Z'];

describe('formatDate', () => {
  it.each(STORED)('writes %s as the browser writes the day', (iso) => {
    expect(formatDate(iso)).toBe(before.date(iso));
    expect(formatDate(iso)).toBe(new Date(iso).toLocaleDateString());
  });

  it.each(UNPARSEABLE)('shows %j as stored when it is no date', (text) => {
    expect(formatDate(text)).toBe(text);
    expect(formatDate(text)).toBe(before.date(text));
  });
});

describe('formatDateTime', () => {
  it.each(STORED)('writes %s as the browser writes the day and time', (iso) => {
    expect(formatDateTime(iso)).toBe(before.dateTime(iso));
    expect(formatDateTime(iso)).toBe(new Date(iso).toLocaleString());
    expect(formatDateTime(iso)).not.toBe(formatDate(iso));
  });

  it.each(UNPARSEABLE)('shows %j as stored when it is no date', (text) => {
    expect(formatDateTime(text)).toBe(text);
    expect(formatDateTime(text)).toBe(before.dateTime(text));
  });
});

describe('formatClockTime', () => {
  const times = [0, 42, 999, Date.UTC(2026, 10, 25, 13, 5, 9, 7), Date.UTC(2026, 10, 25, 23, 59, 59, 120)];

  it.each(times)('writes %i on a 24-hour clock to the millisecond', (time) => {
    expect(formatClockTime(time)).toBe(before.clock(time));
  });

  it('pads the milliseconds to three digits and keeps events a millisecond apart apart', () => {
    const time = Date.UTC(2026, 10, 25, 13, 5, 9, 7);
    expect(formatClockTime(time)).toMatch(/\.007$/);
    expect(formatClockTime(time + 35)).toMatch(/\.042$/);
    expect(formatClockTime(time)).not.toBe(formatClockTime(time + 1));
    expect(formatClockTime(time)).not.toMatch(/AM|PM/);
  });
});
