/**
 * Tells stderr about a logger's I/O failures: the first failure of a run is reported, the
 * rest are silent until the logger works again, so a broken destination cannot flood stderr.
 * Logging never throws sink failures at the code that logs.
 */
export class ProblemReporter {
  private failing = false;

  constructor(private readonly logger: string, private readonly writeStderr: (text: string) => void) {}

  fail(action: string, error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.writeStderr(`tsibase: logger '${this.logger}': ${action}: ${reason}\n`);
  }

  succeeded(): void {
    this.failing = false;
  }
}
