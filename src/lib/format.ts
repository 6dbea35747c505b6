/**
 * How Kinora writes dates and times, once: in the person's own locale and time zone (the
 * browser's defaults), and a stored text that does not parse as a date is shown as it is rather
 * than as "Invalid Date".
 */

const parsed = (iso: string): Date | null => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** A day: the date an album, asset, story or share was made or changed. */
export function formatDate(iso: string): string {
  return parsed(iso)?.toLocaleDateString() ?? iso;
}

/** A day and a time: a result's creation, a credit history row, an organisation's transfer. */
export function formatDateTime(iso: string): string {
  return parsed(iso)?.toLocaleString() ?? iso;
}

/**
 * A time of day to the millisecond on a 24-hour clock, for the inspector's event log, where
 * events a few milliseconds apart must stay apart.
 */
export function formatClockTime(time: number): string {
  const date = new Date(time);
  return `${date.toLocaleTimeString([], { hour12: false })}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}
