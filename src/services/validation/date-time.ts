/**
 * RFC 3339 date-times (§5.6): `2026-12-01T10:00:00Z`, `…T10:00:00.5+02:00`; `T` and `Z` in
 * either case. Seconds may be 60 only for a leap second (23:59:60 in UTC), which is taken as
 * the next second, as POSIX clocks do. Once converted to UTC the year must be 0000-9999, so
 * every stored value reads back as the same `YYYY-MM-DDTHH:mm:ss.sssZ` on both faces.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const LAST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const FIRST_MS = new Date(0).setUTCFullYear(0, 0, 1);

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/**
 * The instant an RFC 3339 date-time names, as an ISO string in UTC with milliseconds; null when
 * it is not one, or outside years 0000-9999.
 */
export function normaliseDateTime(text: string): string | null {
  const match = RFC3339.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = Math.floor(Number(`0${match[7] ?? ''}`) * 1000);
  const sign = match[9] === '-' ? -1 : 1;
  const offsetMinutes = match[8] ? 0 : sign * (Number(match[10]) * 60 + Number(match[11]));
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 60) return null;
  if (match[10] !== undefined && (Number(match[10]) > 23 || Number(match[11]) > 59)) return null;
  // Date.UTC reads years 0-99 as 1900-1999; setUTCFullYear does not.
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, Math.min(second, 59), fraction);
  const utc = local.getTime() - offsetMinutes * 60_000;
  if (second === 60) {
    const at = new Date(utc);
    if (at.getUTCHours() !== 23 || at.getUTCMinutes() !== 59) return null;
  }
  const instant = utc + (second === 60 ? 1000 : 0);
  return instant < FIRST_MS || instant > LAST_MS ? null : new Date(instant).toISOString();
}

/** The ajv `date-time` format: exactly what normaliseDateTime accepts. */
export function isDateTime(text: string): boolean {
  return normaliseDateTime(text) !== null;
}
