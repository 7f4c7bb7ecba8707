// The ISO 8601 forms a file logger's `rotationTime` accepts, and the date-times filters compare
// TimeStamp with. Everything without an explicit zone is UTC, like every time the node logs.
//
//   duration             P1D, PT1H, PT0.5S, P1Y2M, P2W     rotate that long after the file opened
//   time of day          12:00, T12:00:00Z, 08:30+02:00    rotate daily at that time
//   day of month + time  ---15T00:00, ---01               rotate monthly (a day past the month's
//                                                          end means its last day)
//   date + time          --01-01T00:00:00, --07-01         rotate annually
//   repeating interval   R/2024-01-01T00:00Z/PT6H, R5/…    rotate at start + k·duration, k = 0, 1, …
//                                                          (k ≤ n for Rn)
//
// Years and months count in calendar steps (Jan 31 + P1M = the last day of February); weeks,
// days, hours, minutes and seconds are fixed lengths and may have a fraction.

import { LogError } from './errors.js';

export interface IsoDuration {
  readonly years: number;
  readonly months: number;
  /** Weeks, days, hours, minutes and seconds together. */
  readonly milliseconds: number;
}

/** When a file opened at some instant is due for rotation. */
export interface RotationSchedule {
  /** The first rotation instant after `openedAt` (ms since the epoch), or undefined if none. */
  next(openedAt: number): number | undefined;
}

const DAY = 86_400_000;
const ZONE = '(Z|[+-]\\d{2}(?::?\\d{2})?)?';
const TIME = '(\\d{2}):(\\d{2})(?::(\\d{2}(?:[.,]\\d+)?))?';
const DATE_TIME = new RegExp(`^(\\d{4})-(\\d{2})-(\\d{2})(?:T${TIME})?${ZONE}$`);
const RECURRING_TIME = new RegExp(`^(?:---(\\d{2})|--(\\d{2})-(\\d{2}))?(T?)(?:${TIME})?${ZONE}$`);
const NUMBER = '(\\d+(?:[.,]\\d+)?)';
const DURATION = new RegExp(
  `^P(?:(\\d+)Y)?(?:(\\d+)M)?(?:${NUMBER}W)?(?:${NUMBER}D)?(?:T(?:${NUMBER}H)?(?:${NUMBER}M)?(?:${NUMBER}S)?)?$`,
);

function decimal(text: string | undefined): number {
  return text === undefined ? 0 : Number(text.replace(',', '.'));
}

/** Minutes east of UTC of a zone suffix (`Z`, `+02`, `-05:30`, `+0530`; none is UTC). */
function zoneOffsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone === 'Z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = zone.length > 3 ? Number(zone.slice(-2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** Milliseconds into the day of `hh:mm[:ss[.fff]]`, or undefined if out of range. */
function timeOfDay(hours: string | undefined, minutes: string | undefined, seconds: string | undefined): number | undefined {
  const [h, m, s] = [decimal(hours), decimal(minutes), decimal(seconds)];
  if (h > 24 || m > 59 || s >= 60 || (h === 24 && (m > 0 || s > 0))) return undefined;
  return Math.round(((h * 60 + m) * 60 + s) * 1000);
}

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/** `YYYY-MM-DD[Thh:mm[:ss[.fff]]][zone]` as ms since the epoch, or undefined. */
export function parseIsoDateTime(text: string): number | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hours, minutes, seconds, zone] = match;
  const [y, mo, d] = [Number(year), Number(month), Number(day)];
  const time = timeOfDay(hours, minutes, seconds);
  const offset = zoneOffsetMinutes(zone);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo - 1) || time === undefined || offset === undefined) {
    return undefined;
  }
  const utc = new Date(0);
  utc.setUTCFullYear(y, mo - 1, d);
  return utc.getTime() + time - offset * 60_000;
}

/** `PnYnMnWnDTnHnMnS` (at least one part; fractions except in years and months), or undefined. */
export function parseIsoDuration(text: string): IsoDuration | undefined {
  const match = DURATION.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return undefined;
  const [, years, months, weeks, days, hours, minutes, seconds] = match;
  const milliseconds = Math.round(
    (((decimal(weeks) * 7 + decimal(days)) * 24 + decimal(hours)) * 60 + decimal(minutes)) * 60_000
      + decimal(seconds) * 1000,
  );
  return { years: decimal(years), months: decimal(months), milliseconds };
}

/** `start` plus `times` × `duration`; calendar parts first, clamping to the end of the month. */
export function addDuration(start: number, duration: IsoDuration, times = 1): number {
  let result = start;
  const totalMonths = (duration.years * 12 + duration.months) * times;
  if (totalMonths !== 0) {
    const date = new Date(start);
    const monthIndex = date.getUTCMonth() + totalMonths;
    const year = date.getUTCFullYear() + Math.floor(monthIndex / 12);
    const month = ((monthIndex % 12) + 12) % 12;
    date.setUTCFullYear(year, month, Math.min(date.getUTCDate(), daysInMonth(year, month)));
    result = date.getTime();
  }
  return result + duration.milliseconds * times;
}

function isZero(duration: IsoDuration): boolean {
  return duration.years === 0 && duration.months === 0 && duration.milliseconds === 0;
}

/** Parses a `rotationTime`; throws LOG_BAD_CONFIG. */
export function parseRotationTime(text: string): RotationSchedule {
  const schedule = text.startsWith('P') ? durationSchedule(text)
    : text.startsWith('R') ? repeatingSchedule(text)
    : recurringTimeSchedule(text);
  if (!schedule) {
    throw new LogError('LOG_BAD_CONFIG', `'${text}' is not an ISO 8601 duration, time or repeating interval`);
  }
  return schedule;
}

function durationSchedule(text: string): RotationSchedule | undefined {
  const duration = parseIsoDuration(text);
  if (!duration || isZero(duration)) return undefined;
  return { next: (openedAt) => addDuration(openedAt, duration) };
}

function repeatingSchedule(text: string): RotationSchedule | undefined {
  const match = /^R(\d*)\/([^/]+)\/([^/]+)$/.exec(text);
  if (!match) return undefined;
  const limit = match[1] === '' ? Infinity : Number(match[1]);
  const start = parseIsoDateTime(match[2]);
  const duration = parseIsoDuration(match[3]);
  if (start === undefined || !duration || isZero(duration)) return undefined;
  // Month lengths vary, so start from an estimate of k and step to the exact first instant.
  const approximate = (duration.years * 365.25 + duration.months * 30.44) * DAY + duration.milliseconds;
  return {
    next(openedAt) {
      let k = Math.max(0, Math.floor((openedAt - start) / approximate) - 1);
      while (k > 0 && addDuration(start, duration, k) > openedAt) k--;
      while (addDuration(start, duration, k) <= openedAt) k++;
      return k <= limit ? addDuration(start, duration, k) : undefined;
    },
  };
}

function recurringTimeSchedule(text: string): RotationSchedule | undefined {
  const match = RECURRING_TIME.exec(text);
  if (!match) return undefined;
  const [, monthDay, month, dayOfMonth, separator, hours, minutes, seconds, zone] = match;
  const hasDate = monthDay !== undefined || month !== undefined;
  // A date needs `T` before its time; a bare time may have it; something must be given.
  if ((hasDate && hours !== undefined && separator !== 'T') || (!hasDate && hours === undefined)) return undefined;
  if (separator === 'T' && hours === undefined) return undefined;
  const time = timeOfDay(hours, minutes, seconds);
  const offset = zoneOffsetMinutes(zone);
  if (time === undefined || offset === undefined) return undefined;
  const shift = offset * 60_000;
  // Computed on the zone's wall clock: shift into it, use the UTC calendar, shift back.
  const at = (year: number, monthIndex: number, day: number) =>
    Date.UTC(year, monthIndex, Math.min(day, daysInMonth(year, monthIndex))) + time - shift;

  if (monthDay !== undefined) {
    const day = Number(monthDay);
    if (day < 1 || day > 31) return undefined;
    return {
      next(openedAt) {
        const wall = new Date(openedAt + shift);
        let [year, monthIndex] = [wall.getUTCFullYear(), wall.getUTCMonth()];
        while (at(year, monthIndex, day) <= openedAt) [year, monthIndex] = monthIndex === 11 ? [year + 1, 0] : [year, monthIndex + 1];
        return at(year, monthIndex, day);
      },
    };
  }
  if (month !== undefined) {
    const [monthIndex, day] = [Number(month) - 1, Number(dayOfMonth)];
    if (monthIndex < 0 || monthIndex > 11 || day < 1 || day > daysInMonth(2000, monthIndex)) return undefined;
    return {
      next(openedAt) {
        let year = new Date(openedAt + shift).getUTCFullYear();
        while (at(year, monthIndex, day) <= openedAt) year++;
        return at(year, monthIndex, day);
      },
    };
  }
  return {
    next(openedAt) {
      const wallDay = Math.floor((openedAt + shift) / DAY) * DAY;
      const today = wallDay + time - shift;
      return today > openedAt ? today : today + DAY;
    },
  };
}
