// Connections refused past max_connections are logged as a flood, not one line each: the first
// refusal at once, then how many more each REPORT_WINDOW_MS while refusals go on.

const REPORT_WINDOW_MS = 10_000;

export class RefusalReport {
  private window: NodeJS.Timeout | undefined;
  private refusedInWindow = 0;

  /** `log` writes one line; `state` says how many connections are open and the limit. */
  constructor(private readonly log: (message: string) => void, private readonly state: () => { open: number; max: number }) {}

  refused(): void {
    if (this.window) {
      this.refusedInWindow++;
      return;
    }
    const { open, max } = this.state();
    this.log(`refusing new connections with 503: ${open} open, max_connections is ${max}`);
    this.startWindow();
  }

  private startWindow(): void {
    this.window = setTimeout(() => {
      this.window = undefined;
      if (this.refusedInWindow === 0) return;
      const { open, max } = this.state();
      this.log(`refused ${this.refusedInWindow} more connections in the last ${REPORT_WINDOW_MS / 1000} s: ${open} open, max_connections is ${max}`);
      this.refusedInWindow = 0;
      this.startWindow();
    }, REPORT_WINDOW_MS).unref();
  }
}
