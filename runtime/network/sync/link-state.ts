import type { BlockXid } from './block-header.js';

// The state of one link's block stream (docs/p2p.md §6.2). psibase's SendFastForward and
// SendSnapshot (§7.4) are one state here: the caller sends headers, parts and verify at once. The
// receiving side stays in Start until the snapshot is loaded.

/** The hello exchange: finding a block both sides have. */
export interface StartState {
  readonly phase: 'Start';
  /** The hello last sent, or the next one to send when `helloSent` is false. */
  hello: BlockXid;
  helloSent: boolean;
  /** Whether the last hello sent was marked committed: the walk back is over. */
  helloCommitted: boolean;
  /** A block the peer has, once known: our common ancestor with it, or a committed block ahead of us. */
  common?: BlockXid;
}

/** Streaming: we send our best chain after `lastSent`; the peer sent `lastReceived` last. */
export interface ReadyState {
  readonly phase: 'Ready';
  lastSent: BlockXid;
  lastReceived: BlockXid;
}

/** We are sending the peer a snapshot: the stream resumes after its block. */
export interface SendSnapshotState {
  readonly phase: 'SendSnapshot';
}

export interface LinkSync {
  state: StartState | ReadyState | SendSnapshotState;
  /** A hello or block is being written: the next waits for `sent` (one in flight per link). */
  sending: boolean;
  /** The peer's last hello marked committed: read again when a loaded snapshot restarts the link. */
  peerCommitted?: BlockXid;
}

export function startState(head: BlockXid): StartState {
  return { phase: 'Start', hello: head, helloSent: false, helloCommitted: false };
}

export function readyState(lastSent: BlockXid, lastReceived: BlockXid): ReadyState {
  return { phase: 'Ready', lastSent, lastReceived };
}
