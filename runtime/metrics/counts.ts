import { MetricsError } from './errors.js';

/** A count or size the node hands in as a number, checked to be one (a bug upstream otherwise). */
export function countOf(name: string, value: number): bigint {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new MetricsError('METRICS_BAD_FIGURE', `${name} must be a non-negative safe integer, got ${value}`);
  }
  return BigInt(value);
}
