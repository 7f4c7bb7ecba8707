// What request and reply heads share about header fields: names checked once and kept with
// their lower case, and comma-separated lists (Connection).

/** Names kept at most: past it the cache starts over (a client sending ever new names gains nothing). */
const NAMES_KEPT = 512;

/** Field names checked valid, with their lower case: clients and callers use the same few names again and again. */
export class CheckedNames {
  private readonly lowerCase = new Map<string, string>();

  /** `check` throws for a name that may not appear in a head. */
  constructor(private readonly check: (name: string) => void) {}

  lower(name: string): string {
    let lower = this.lowerCase.get(name);
    if (lower === undefined) {
      this.check(name);
      lower = name.toLowerCase();
      if (this.lowerCase.size >= NAMES_KEPT) this.lowerCase.clear();
      this.lowerCase.set(name, lower);
    }
    return lower;
  }
}

/** Whether a comma-separated field (Connection) lists `token`, case-insensitively. */
export function listsToken(field: string | string[] | undefined, token: string): boolean {
  if (field === undefined) return false;
  const text = Array.isArray(field) ? field.join(',') : field;
  return text.split(',').some((part) => part.trim().toLowerCase() === token);
}
