// The numbers of psibase's shortest-path routing (docs/p2p.md §A): u16 metrics where 0xFFFF is
// infinite, cyclic u16 sequence numbers, and Babel's feasibility order (RFC 8966).

export const INFINITE_METRIC = 0xffff;

/** A link to a neighbour costs 1. */
export const LINK_COST = 1;

/** a + b, saturating at infinite. */
export function addMetric(a: number, b: number): number {
  return Math.min(a + b, INFINITE_METRIC);
}

/** Cyclic order over 16 bits: a is older than b when they differ and b is at most 2^15 ahead. */
export function seqnoBefore(a: number, b: number): boolean {
  return a !== b && ((b - a) & 0x8000) === 0;
}

export function nextSeqno(seqno: number): number {
  return (seqno + 1) & 0xffff;
}

export interface Feasibility {
  readonly seqno: number;
  readonly metric: number;
}

/** Whether a is strictly better than b: a newer seqno, or the same seqno and a smaller metric. */
export function betterThan(a: Feasibility, b: Feasibility): boolean {
  return seqnoBefore(b.seqno, a.seqno) || (a.seqno === b.seqno && a.metric < b.metric);
}
