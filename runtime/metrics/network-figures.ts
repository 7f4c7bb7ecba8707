// Peer network figures of the perf report (docs/administration.md "Performance report"): the
// links up now, and the blocks peers sent since the node started and what became of them.

/** The fields of the report's `network`, in report order. */
export const NETWORK_FIELDS = ['links', 'blocksReceived', 'blocksApplied', 'blocksRefused'] as const;

export type NetworkFigures = Readonly<Record<(typeof NETWORK_FIELDS)[number], number>>;
