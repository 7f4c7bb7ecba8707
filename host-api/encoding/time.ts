import { TsibaseError } from '../errors.js';

export type TimeUnit = 'seconds' | 'microseconds';

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}(?::?\d{2})?)$/;
const MAX_MS = 8.64e15; // the range of a JS Date

/**
 * Parses `YYYY-MM-DDThh:mm:ss[.fraction](Z|±HH[:MM])` into seconds or microseconds since 1970.
 * A fraction finer than the unit is truncated toward the past.
 */
export function parseTimePoint(text: string, unit: TimeUnit): bigint {
  const m = PATTERN.exec(text);
  if (!m) throw new TsibaseError('INVALID_TIME', `'${text}' is not a time of the form YYYY-MM-DDThh:mm:ss[.ffffff]Z`);
  const [, y, mo, d, h, mi, s, frac = '', zone] = m;
  const ms = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!);
  const date = new Date(ms);
  if (Number.isNaN(ms) || date.getUTCMonth() !== +mo! - 1 || date.getUTCDate() !== +d! || +h! > 23 || +mi! > 59 || +s! > 59) {
    throw new TsibaseError('INVALID_TIME', `'${text}' is not a valid calendar time`);
  }
  let offsetSeconds = 0;
  if (zone !== 'Z') {
    const digits = zone!.slice(1).replace(':', '');
    offsetSeconds = (zone![0] === '-' ? -1 : 1) * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2) || '0') * 60);
  }
  const seconds = BigInt(ms / 1000 - offsetSeconds);
  if (unit === 'seconds') return seconds;
  return seconds * 1_000_000n + BigInt(frac.slice(0, 6).padEnd(6, '0'));
}

/** Formats as psibase does: `...:20Z` for seconds, `...:20.000000Z` for microseconds. */
export function formatTimePoint(count: bigint, unit: TimeUnit): string {
  const perSecond = unit === 'seconds' ? 1n : 1_000_000n;
  let seconds = count / perSecond;
  let rest = count % perSecond;
  if (rest < 0n) {
    seconds -= 1n;
    rest += perSecond;
  }
  const ms = Number(seconds) * 1000;
  if (!(Math.abs(ms) <= MAX_MS)) throw new TsibaseError('INVALID_TIME', `time ${count} ${unit} is outside the representable range`);
  const base = new Date(ms).toISOString().slice(0, 19);
  return unit === 'seconds' ? `${base}Z` : `${base}.${rest.toString().padStart(6, '0')}Z`;
}
