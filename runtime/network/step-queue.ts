// One machine step at a time (docs/p2p.md "What we build" 7): a step's Ready is carried out
// whole before the next step is taken, so carrying it out never steps a machine from inside it.
// What arises meanwhile (a commit for block sync, a message delivered to this node, a link's
// write done) waits its turn and is stepped after, in the order it arose.

export class StepQueue {
  private readonly waiting: (() => void)[] = [];
  private busy = false;

  /** Takes `turn` now, or after the turn being carried out and those queued before it. */
  run(turn: () => void): void {
    this.waiting.push(turn);
    if (this.busy) return;
    this.busy = true;
    try {
      for (let next = this.waiting.shift(); next; next = this.waiting.shift()) next();
    } finally {
      this.busy = false;
    }
  }
}
