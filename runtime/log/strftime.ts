// strftime-like patterns over UTC times, for `{TimeStamp:<pattern>}` in formats and the time
// fields of file name patterns. Supported fields:
//   %Y year   %y year % 100   %m month 01-12   %d day 01-31   %e day, space-padded
//   %H hour 00-23   %M minute   %S second   %L millisecond 000-999   %j day of year 001-366
//   %a Mon…Sun   %b Jan…Dec   %F = %Y-%m-%d   %T = %H:%M:%S   %s seconds since the epoch
//   %z +0000   %Z UTC   %% a percent sign

import { LogError, type LogErrorCode } from './errors.js';

export type PatternPart = { literal: string } | { field: string };

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pad(value: number, width: number, fill = '0'): string {
  return String(value).padStart(width, fill);
}

export const TIME_FIELDS: Readonly<Record<string, (time: Date) => string>> = {
  Y: (t) => pad(t.getUTCFullYear(), 4),
  y: (t) => pad(t.getUTCFullYear() % 100, 2),
  m: (t) => pad(t.getUTCMonth() + 1, 2),
  d: (t) => pad(t.getUTCDate(), 2),
  e: (t) => pad(t.getUTCDate(), 2, ' '),
  H: (t) => pad(t.getUTCHours(), 2),
  M: (t) => pad(t.getUTCMinutes(), 2),
  S: (t) => pad(t.getUTCSeconds(), 2),
  L: (t) => pad(t.getUTCMilliseconds(), 3),
  j: (t) => pad(Math.floor((t.getTime() - Date.UTC(t.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, 3),
  a: (t) => WEEKDAYS[t.getUTCDay()],
  b: (t) => MONTHS[t.getUTCMonth()],
  F: (t) => t.toISOString().slice(0, 10),
  T: (t) => t.toISOString().slice(11, 19),
  s: (t) => String(Math.floor(t.getTime() / 1000)),
  z: () => '+0000',
  Z: () => 'UTC',
};

/**
 * Splits a pattern into literal text and `%x` fields (`%%` becomes a literal `%`); a field
 * letter not in `fields` or a trailing `%` throws `errorCode`.
 */
export function splitPattern(pattern: string, fields: ReadonlySet<string>, errorCode: LogErrorCode): PatternPart[] {
  const parts: PatternPart[] = [];
  let literal = '';
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '%') {
      literal += pattern[i];
      continue;
    }
    const letter = pattern[++i];
    if (letter === '%') {
      literal += '%';
      continue;
    }
    if (letter === undefined || !fields.has(letter)) {
      const shown = letter === undefined ? "a trailing '%'" : `unsupported field '%${letter}'`;
      throw new LogError(errorCode, `${shown} at offset ${i - 1} of pattern '${pattern}'`);
    }
    if (literal) parts.push({ literal });
    literal = '';
    parts.push({ field: letter });
  }
  if (literal) parts.push({ literal });
  return parts;
}

const ALL_TIME_FIELDS = new Set(Object.keys(TIME_FIELDS));

/** Compiles a strftime pattern; unsupported fields throw `errorCode`. */
export function compileStrftime(pattern: string, errorCode: LogErrorCode): (time: Date) => string {
  const render = splitPattern(pattern, ALL_TIME_FIELDS, errorCode).map((part) =>
    'literal' in part ? () => part.literal : TIME_FIELDS[part.field],
  );
  return (time) => render.map((piece) => piece(time)).join('');
}
