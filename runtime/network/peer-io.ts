// What the network's layers share about links: the id of one, and what a state machine (routing,
// block sync) asks its caller to do about one besides sending on it: close it, or log a line.

/** The caller's id of one live link (PeerLink.id); any number, unique among live links. */
export type PeerId = number;

export type LogLevel = 'debug' | 'info' | 'warning';

/** A line for the node's log; `peer` names the link it is about. */
export interface LogEntry {
  readonly level: LogLevel;
  readonly peer?: PeerId;
  readonly text: string;
}

/** Close this link. */
export interface PeerDisconnect {
  readonly peer: PeerId;
  readonly reason: string;
  /** The peer sent something invalid: the close counts against it (links/peer-conduct.ts). */
  readonly offence?: true;
}

/** Where the network reports (the node's log, `p2p` channel). */
export type NetworkLog = { readonly [L in LogLevel]: (message: string) => void };

/** Writes a state machine's log entries, each prefixed with the link it is about. */
export function writeLog(log: NetworkLog, entries: readonly LogEntry[]): void {
  for (const { level, peer, text } of entries) log[level](peer === undefined ? text : `link ${peer}: ${text}`);
}
