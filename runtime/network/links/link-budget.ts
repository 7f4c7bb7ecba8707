// The share of the node's time one link's frames may take (docs/p2p.md "What we build" 1,
// "Peers that attack"): a token bucket of handling time. Every frame is charged the time the
// node spent on it plus a fixed cost for its framing and scheduling, and the link the time
// reading its socket took (unmasking a websocket's frames is the costliest part of a flood). A link whose bucket is
// empty is not served until it has refilled (its socket is then not read either: backpressure),
// and one that stays over its budget, never letting the bucket fill halfway again, for
// `dropAfterMs` sends more than the node can process: it is dropped.

export interface BudgetSettings {
  /** Milliseconds of handling one link earns per millisecond. */
  readonly share: number;
  /** The most a link may have saved up, and the most it may owe. */
  readonly burstMs: number;
  /** Charged for every frame besides the time handling it took: the framing and queueing the node does for it. */
  readonly frameMs: number;
  /** The most one frame is charged: a message that is long to handle (a snapshot loading) is the node's work, not a flood. */
  readonly maxChargeMs: number;
  /** Over budget this long without a pause: the link is dropped. */
  readonly dropAfterMs: number;
}

/** A quarter of the node's time per link, a quarter of a second at once; 10 s of flooding before the drop. */
export const LINK_BUDGET: BudgetSettings = { share: 0.25, burstMs: 250, frameMs: 0.02, maxChargeMs: 50, dropAfterMs: 10_000 };

export class LinkBudget {
  private tokens: number;
  private at: number;
  /** When the bucket last ran empty, while it has not filled halfway since. */
  private overSince: number | undefined;

  constructor(now: number, private readonly settings: BudgetSettings = LINK_BUDGET) {
    this.tokens = settings.burstMs;
    this.at = now;
  }

  /** One frame took `ms` to handle: that and its framing. */
  charge(ms: number, now: number): void {
    this.spend(ms + this.settings.frameMs, now);
  }

  /** Other work for the link took `ms` (reading its socket). */
  spend(ms: number, now: number): void {
    this.refill(now);
    const { maxChargeMs, burstMs } = this.settings;
    this.tokens = Math.max(this.tokens - Math.min(ms, maxChargeMs), -burstMs);
    if (this.tokens <= 0) this.overSince ??= now;
  }

  /** How long until the link may be served again; 0 for now. */
  waitMs(now: number): number {
    this.refill(now);
    return this.tokens > 0 ? 0 : Math.ceil((-this.tokens + this.settings.frameMs) / this.settings.share);
  }

  /** Whether the link has been over its budget for longer than it may be. */
  exhausted(now: number): boolean {
    this.refill(now);
    return this.overSince !== undefined && now - this.overSince >= this.settings.dropAfterMs;
  }

  private refill(now: number): void {
    const { share, burstMs } = this.settings;
    this.tokens = Math.min(burstMs, this.tokens + (now - this.at) * share);
    this.at = now;
    if (this.tokens >= burstMs / 2) this.overSince = undefined;
  }
}
