// Every error tsibase raises on purpose carries a stable `code` (for programs) next to a
// message that names the problem (for people). Codes are SCREAMING_SNAKE_CASE and never reused.

export class TsibaseError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}
