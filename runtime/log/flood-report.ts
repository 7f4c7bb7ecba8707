// A flood of like events (connections refused past a limit, frames a peer link refused) is
// logged as one line, not one line each: the first event at once, then, every REPORT_WINDOW_MS
// while they go on, how many more there were.

const REPORT_WINDOW_MS = 10_000;

/** The lines of one kind of flood. */
export interface FloodLines {
  /** The line for the first event of a flood, which `detail` may say more of. */
  first(detail?: string): string;
  /** The line for `count` more events in the last `seconds`. */
  more(count: number, seconds: number): string;
}

export class FloodReport {
  private window: NodeJS.Timeout | undefined;
  private inWindow = 0;

  /** `log` writes one line. */
  constructor(private readonly log: (message: string) => void, private readonly lines: FloodLines) {}

  /** One event of the flood; `detail` is for the first line, if this is the first. */
  event(detail?: string): void {
    if (this.window) {
      this.inWindow++;
      return;
    }
    this.log(this.lines.first(detail));
    this.startWindow();
  }

  /** The flood's source is gone: the events not yet reported are, at once. */
  end(): void {
    clearTimeout(this.window);
    this.window = undefined;
    this.flush();
  }

  private flush(): boolean {
    if (this.inWindow === 0) return false;
    this.log(this.lines.more(this.inWindow, REPORT_WINDOW_MS / 1000));
    this.inWindow = 0;
    return true;
  }

  private startWindow(): void {
    this.window = setTimeout(() => {
      this.window = undefined;
      if (this.flush()) this.startWindow();
    }, REPORT_WINDOW_MS).unref();
  }
}
