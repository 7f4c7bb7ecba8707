// The one timer a consensus state machine asks for (docs/p2p.md §4, §5.1): setting it again
// replaces the running one; it never keeps the process alive.

export class ConsensusTimer {
  private timer: NodeJS.Timeout | undefined;

  set(ms: number, fire: () => void): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      fire();
    }, ms);
    this.timer.unref();
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
