/**
 * The open connections the listeners sharing it may hold together. Past `max` a new connection
 * is refused; `onRefused` hears of each refusal (a flood is many: it should not log each).
 */
export class ConnectionLimit {
  private open = 0;

  constructor(public max: number, private readonly onRefused: () => void) {}

  /** Counts a new connection in; false (and reported) when the limit is reached. */
  take(): boolean {
    if (this.open >= this.max) {
      this.onRefused();
      return false;
    }
    this.open++;
    return true;
  }

  release(): void {
    this.open--;
  }

  get openConnections(): number {
    return this.open;
  }
}
