// Wire types that are plain integers. The transform reads these names in type annotations, so
// a field declared `AccountNumber` shows up as `AccountNumber` (not `u64`) in a schema.

/** An account name as its psibase number (docs/formats.md §4); see account.ts. */
export type AccountNumber = u64;
/** An action or event name as its psibase number (docs/formats.md §5). */
export type MethodNumber = u64;
/** Seconds since 1970-01-01T00:00:00Z. */
export type TimePointSec = i64;
/** Microseconds since 1970-01-01T00:00:00Z. */
export type TimePointUSec = i64;
