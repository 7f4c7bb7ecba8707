// Figures of the perf report (decimal strings) made readable.

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** e.g. 3250585 → "3.1 MiB". */
export function formatBytes(bytes) {
  let value = Number(bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}

/** CPU time in microseconds as seconds, e.g. "1.25 s". */
export function formatMicroseconds(us) {
  return `${(Number(us) / 1e6).toFixed(2)} s`;
}

/** A count with thousands separators. */
export function formatCount(count) {
  return BigInt(count).toLocaleString('en');
}
