// Block time is a TimePointUSec; transaction expirations and snapshot intervals are in seconds.

import { TimePointSec, TimePointUSec } from "../sdk/index";

const MICROS_PER_SECOND: i64 = 1_000_000;

export function blockTimeOf(seconds: TimePointSec): TimePointUSec {
  return seconds * MICROS_PER_SECOND;
}
