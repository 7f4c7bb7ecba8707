import { LinkBudget, LINK_BUDGET, type BudgetSettings } from './link-budget.js';

// The frames links bring wait in one inbox per link until the node handles them (docs/p2p.md
// "What we build" 1, "Peers that attack"). Links take turns, one frame each, so a link that
// floods delays another link's frame by at most one frame of its own; the node handles frames
// for at most SLICE_MS before it reads sockets, runs timers and serves again. A link over its
// time budget (link-budget.ts) or held by the layer above waits without turns; a link whose
// inbox holds more than HIGH_WATER_BYTES or HIGH_WATER_FRAMES is not read (TCP then slows the
// peer) until the inbox has drained to a quarter of both. A frame is charged from the moment its
// turn starts to the end of its handling, and the link the time reading its socket took.

/** Waiting bytes, or frames, past which a link's socket is not read. */
export const HIGH_WATER_BYTES = 1024 * 1024;
export const HIGH_WATER_FRAMES = 4096;
/** The longest the node handles frames before it lets other work run. */
const SLICE_MS = 10;

/** What the inboxes do with frames and links. */
export interface InboxPorts {
  /** Handles one frame of the link. */
  handle(linkId: number, frame: Uint8Array): void;
  /** Stop reading the link's socket, or read it again. */
  pause(linkId: number): void;
  resume(linkId: number): void;
  /** The link stayed over its budget for too long: it is to be dropped. */
  overBudget(linkId: number): void;
}

interface Inbox {
  readonly id: number;
  /** Waiting frames from `first` on (the ones before are handled: taken out in bulk, not one by one). */
  frames: Uint8Array[];
  first: number;
  bytes: number;
  readonly budget: LinkBudget;
  /** Held by the layer above (its blocks wait to be applied). */
  held: boolean;
  /** The socket is not read. */
  paused: boolean;
  /** Waiting for the budget to refill. */
  refill: NodeJS.Timeout | undefined;
}

function waiting(inbox: Inbox): number {
  return inbox.frames.length - inbox.first;
}

/** The next waiting frame, out of the inbox. */
function take(inbox: Inbox): Uint8Array {
  const frame = inbox.frames[inbox.first]!;
  inbox.frames[inbox.first++] = EMPTY;
  inbox.bytes -= frame.length;
  // Handled frames are dropped from the front once they are half the array.
  if (inbox.first * 2 >= inbox.frames.length) {
    inbox.frames = inbox.frames.slice(inbox.first);
    inbox.first = 0;
  }
  return frame;
}

const EMPTY = new Uint8Array(0);

export class LinkInboxes {
  private readonly inboxes = new Map<number, Inbox>();
  /** Inboxes with a frame to handle now, in turn order (a Map keeps insertion order). */
  private readonly turns = new Map<number, Inbox>();
  private scheduled = false;

  constructor(private readonly ports: InboxPorts, private readonly budget: BudgetSettings = LINK_BUDGET) {}

  open(linkId: number): void {
    this.inboxes.set(linkId, { id: linkId, frames: [], first: 0, bytes: 0, budget: new LinkBudget(performance.now(), this.budget), held: false, paused: false, refill: undefined });
  }

  /** A frame arrived on the link. */
  push(linkId: number, frame: Uint8Array): void {
    const inbox = this.inboxes.get(linkId);
    if (!inbox) return;
    inbox.frames.push(frame);
    inbox.bytes += frame.length;
    if (!inbox.paused && (inbox.bytes > HIGH_WATER_BYTES || waiting(inbox) > HIGH_WATER_FRAMES)) {
      inbox.paused = true;
      this.ports.pause(linkId);
    }
    this.takeTurn(inbox);
  }

  /** Reading the link's socket took `ms` (the websocket's unmasking and parsing of its frames). */
  charge(linkId: number, ms: number): void {
    this.inboxes.get(linkId)?.budget.spend(ms, performance.now());
  }

  /** Holds the link's frames (true) or lets them be handled again (false). */
  hold(linkId: number, held: boolean): void {
    const inbox = this.inboxes.get(linkId);
    if (!inbox || inbox.held === held) return;
    inbox.held = held;
    if (held) this.turns.delete(linkId);
    else this.takeTurn(inbox);
  }

  /** The link is gone: its waiting frames with it. */
  remove(linkId: number): void {
    const inbox = this.inboxes.get(linkId);
    if (!inbox) return;
    clearTimeout(inbox.refill);
    this.inboxes.delete(linkId);
    this.turns.delete(linkId);
  }

  /** Queues the inbox for a turn if it has a frame and may be served now, or once its budget allows. */
  private takeTurn(inbox: Inbox): void {
    if (waiting(inbox) === 0 || inbox.held || inbox.refill || this.turns.has(inbox.id)) return;
    const wait = inbox.budget.waitMs(performance.now());
    if (wait > 0) {
      inbox.refill = setTimeout(() => {
        inbox.refill = undefined;
        this.takeTurn(inbox);
      }, wait);
      return;
    }
    this.turns.set(inbox.id, inbox);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.run());
  }

  /** Turns for SLICE_MS at most; `scheduled` stays set meanwhile, so the turns taken on wait for the next run. */
  private run(): void {
    const started = performance.now();
    while (this.turns.size > 0 && performance.now() - started < SLICE_MS) {
      const inbox: Inbox = this.turns.values().next().value!;
      this.turns.delete(inbox.id);
      const before = performance.now();
      const frame = take(inbox);
      this.ports.handle(inbox.id, frame);
      const after = performance.now();
      // Handling it may have closed the link.
      if (!this.inboxes.has(inbox.id)) continue;
      inbox.budget.charge(after - before, after);
      if (inbox.budget.exhausted(after)) {
        this.remove(inbox.id);
        this.ports.overBudget(inbox.id);
        continue;
      }
      if (inbox.paused && inbox.bytes <= HIGH_WATER_BYTES / 4 && waiting(inbox) <= HIGH_WATER_FRAMES / 4) {
        inbox.paused = false;
        this.ports.resume(inbox.id);
      }
      this.takeTurn(inbox);
    }
    this.scheduled = false;
    if (this.turns.size > 0) this.schedule();
  }
}
