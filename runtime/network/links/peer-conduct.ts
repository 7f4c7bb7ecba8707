// What a peer gets for misbehaving (docs/p2p.md "What we build" 1, "Peers that attack"). Each
// message the node refuses as invalid is an offence of the peer that sent it, named by a key: the
// remote address of an incoming link, the URL of a dialled one. OFFENCE_LIMIT offences within
// OFFENCE_WINDOW_MS ban the peer for `banMs`. Bans are kept in memory: a restart forgets them.

/** Offences within OFFENCE_WINDOW_MS that ban a peer. */
export const OFFENCE_LIMIT = 5;
export const OFFENCE_WINDOW_MS = 60_000;
/** Past this many peers on record, those with nothing recent are forgotten. */
const FORGET_ABOVE = 1024;

export class PeerConduct {
  /** The times of each peer's recent offences. */
  private readonly offences = new Map<string, number[]>();
  /** When each banned peer's ban ends. */
  private readonly bans = new Map<string, number>();

  constructor(private readonly banMs: number) {}

  /** An offence of `key` at `now`: the time the ban it brings ends, if it brings one. */
  offence(key: string, now: number): number | undefined {
    const recent = (this.offences.get(key) ?? []).filter((t) => t > now - OFFENCE_WINDOW_MS);
    recent.push(now);
    if (recent.length < OFFENCE_LIMIT) {
      this.offences.set(key, recent);
      this.forget(now);
      return undefined;
    }
    this.offences.delete(key);
    const until = now + this.banMs;
    this.ban(key, until);
    return until;
  }

  /** Bans `key` until `until` (a peer known by several keys: each of them). */
  ban(key: string, until: number): void {
    this.bans.set(key, Math.max(until, this.bans.get(key) ?? 0));
  }

  /** When the ban of `key` ends, while it is banned. */
  bannedUntil(key: string, now: number): number | undefined {
    const until = this.bans.get(key);
    if (until === undefined || until > now) return until;
    this.bans.delete(key);
    return undefined;
  }

  /** Drops the records that no longer count, once there are many: peers that come and go cannot grow them without bound. */
  private forget(now: number): void {
    if (this.offences.size + this.bans.size <= FORGET_ABOVE) return;
    for (const [key, times] of this.offences) if (times[times.length - 1]! <= now - OFFENCE_WINDOW_MS) this.offences.delete(key);
    for (const [key, until] of this.bans) if (until <= now) this.bans.delete(key);
  }
}
