import type { Mode } from '../../host-api/abi/databases.js';
import type { ActionTrace, HttpReply } from '../../host-api/types/index.js';
import type { ExpectedSignature } from '../crypto/signature-verdicts.js';
import type { Store } from '../db/store.js';
import type { TemporaryDb } from '../db/temporary-db.js';
import type { ExecutionMeter } from './execution-meter.js';
import { HostError } from './errors.js';
import type { HandleTransfer } from './handles/handle-transfer.js';
import type { ServiceInstance } from './service-instance.js';

// What host imports act on, in the shape of wasmtime's embedding API: every instance's imports
// hold a Caller, and the Caller gives them the state of the execution context the instance
// belongs to (its mode and capabilities, the running action, the store). Nothing here knows how
// a context is made or run.

/** The node's requests still waiting for a reply, as the contexts that may answer them see them. */
export interface OpenSockets {
  isOpen(fd: number): boolean;
}

/** A reply a privileged service sent on a request's socket (a packed HttpReply that unpacks). */
export interface SocketReply {
  readonly socket: number;
  readonly reply: HttpReply;
}

/**
 * What a context did with the sockets, returned to the node with its result: the replies it
 * sent, in order, and the sockets it owned (auto-close on) and left without one.
 */
export interface SocketOutcome {
  readonly replies: readonly SocketReply[];
  readonly unanswered: readonly number[];
}

/** The sockets given to a context: which requests are open, and which the context owns from the start. */
export interface SocketGrant {
  readonly open: OpenSockets;
  readonly owned?: readonly number[];
}

/** The node's open requests: what contexts may answer, and where their outcomes are settled. */
export interface SocketRegistry extends OpenSockets {
  /**
   * Writes the replies, then answers what was left unanswered with a 500 of the node's own:
   * `error` (why the context failed) or a default message (docs/host-abi.md §3 socketAutoClose).
   */
  settle(outcome: SocketOutcome, error?: string): void;
}

/** A context's sockets as its imports use them (RPC/CB modes); both calls return 0 or an errno. */
export interface SocketHost {
  /** Records a reply on a socket; `data` (a view of the guest's memory) is read only during the call. */
  send(fd: number, data: Uint8Array): number;
  /** Gives the context ownership of the socket (on) or takes it back. */
  autoClose(fd: number, on: boolean): number;
  /** Whether the context may still answer on the socket. */
  isAnswerable(fd: number): boolean;
}

/** One action running in a service instance: the stack entry of docs/host-abi.md §6. */
export interface Frame {
  readonly instance: ServiceInstance;
  readonly packedAction: Uint8Array;
  readonly trace: ActionTrace;
  /** Subjective views open when the action started; views it opens are discarded when it returns. */
  readonly subjectiveDepth: number;
  retval: Uint8Array;
}

/** The chain's key and value limits (the native config row). */
export interface SizeLimits {
  readonly maxKeySize: number;
  readonly maxValueSize: number;
}

/** The state of one execution context, as its host imports see it. */
export interface HostState {
  readonly mode: Mode;
  readonly store: Store;
  /** The context's fuel and stack meter, which host calls charge too (docs/host-abi.md §10.1). */
  readonly meter: ExecutionMeter;
  /** The innermost running action. */
  readonly frame: Frame;
  readonly sizeLimits: SizeLimits;
  /** The context's temporary database (67). */
  readonly temporary: TemporaryDb;
  /** Checkpoints of the open subjective views, innermost last. */
  readonly subjectiveViews: number[];
  /** RPC and callback modes: the connections a privileged service may answer. */
  readonly sockets: SocketHost | undefined;
  /** Verify mode: the signature check the service is expected to make, with its verdict. */
  readonly expectedSignature: ExpectedSignature | undefined;
  /** Monotonic time (ns) the context began, in the modes that may read their CPU time. */
  readonly startedAt: bigint | undefined;
  /** Kv handles crossing the current call boundary (handle-generation modules, docs/host-abi.md §12.4). */
  readonly handleTransfer: HandleTransfer;
  /** Runs a packed Action for the current service (the `call` import, with its flags); its return value. */
  call(packedAction: Uint8Array, flags?: bigint): Uint8Array;
  /** Admits (and compiles) code about to be stored; throws AdmissionError when it is refused. */
  admitCode(codeHash: Uint8Array, code: Uint8Array): void;
}

/**
 * The state one instance's imports reach: set while the instance belongs to a context, cleared
 * when the context gives it back, so a pooled instance never sees a context it is not part of.
 * None is set while the module's start function runs: what it leaves must be the module's alone,
 * since a reused instance does not run it again (docs/host-abi.md §7).
 */
export class Caller {
  private state: HostState | undefined;
  /** False until the first attach: until then the module's start function is what runs. */
  private instantiated = false;

  get context(): HostState {
    if (!this.state) {
      throw this.instantiated
        ? new HostError('HOST_BAD_ARGUMENT', 'a host import was called by an instance outside an execution context')
        : new HostError('HOST_ACCESS_DENIED', "a module's start function called a host import; host imports are available from the start export on");
    }
    return this.state;
  }

  /** True while the instance belongs to a context. */
  get attached(): boolean {
    return this.state !== undefined;
  }

  attach(state: HostState): void {
    this.state = state;
    this.instantiated = true;
  }

  detach(): void {
    this.state = undefined;
  }
}
