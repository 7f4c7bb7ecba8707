// The flags argument of checkAuthSys (docs/chain.md §5): one request kind (the low byte) or'ed with
// zero or more flags.

export const readOnlyFlag: u32 = 0x80000000;
/** The first action of a transaction: its sender is the one billed. */
export const firstAuthFlag: u32 = 0x40000000;
/** Selects the request kind. */
export const requestMask: u32 = 0x000000ff;

/** A top-level action of a transaction. */
export const topActionReq: u32 = 1;
/** runAs by the sender itself. */
export const runAsRequesterReq: u32 = 2;
/** runAs within the allowedActions of an earlier runAs, asking for no more. */
export const runAsMatchedReq: u32 = 3;
/** runAs within the allowedActions of an earlier runAs, asking for more. */
export const runAsMatchedExpandedReq: u32 = 4;
/** Any other runAs. */
export const runAsOtherReq: u32 = 5;
