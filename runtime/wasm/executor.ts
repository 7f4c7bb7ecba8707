import type { Mode } from '../../host-api/abi/databases.js';
import type { Action, ActionTrace } from '../../host-api/types/index.js';
import type { Store } from '../db/store.js';
import type { ExecutionBudget } from './execution-meter.js';
import type { Engine } from './engine.js';
import { ExecutionContext, type AnsweredCalls, type ExpectedSignature } from './execution-context.js';
import { ContextSockets } from './context-sockets.js';
import type { RunModeResults } from './run-mode-results.js';
import type { SocketGrant, SocketOutcome } from './host-state.js';
import { newActionTrace } from './trace.js';

/** What runs: an action (sent by the host as any sender), or a host-called export of a service. */
export type ExecutionTarget =
  | { readonly action: Action }
  | { readonly service: bigint; readonly export: string; readonly rawData?: Uint8Array };

/** One execution: a transaction, query, callback or signature check (docs/host-abi.md §5). */
export interface ExecutionRequest {
  readonly mode: Mode;
  readonly target: ExecutionTarget;
  /** Fuel and stack; the context's default when absent. */
  readonly budget?: ExecutionBudget;
  /** RPC and callback modes: the requests a privileged service may answer. */
  readonly sockets?: SocketGrant;
  /** Verify mode: the signature check the verify service is expected to make, with its verdict. */
  readonly expectedSignature?: ExpectedSignature;
  /** Transaction and speculative modes: where calls that change the run mode record or replay their results. */
  readonly runModeResults?: RunModeResults;
  /** Transaction and speculative modes: calls the host answers itself (a development fork's auth bypass). */
  readonly answeredCalls?: AnsweredCalls;
}

export interface ExecutionResult {
  /** The target's return value (empty when it failed). */
  readonly retval: Uint8Array;
  /** The trace of the target and everything it called. */
  readonly trace: ActionTrace;
  /** Why it failed (a service abort, a host refusal, a limit), or null. */
  readonly error: (Error & { readonly code?: string }) | null;
  readonly fuelUsed: bigint;
  /** What the context did with the sockets it was given (the node writes the replies); absent when it had none. */
  readonly sockets?: SocketOutcome;
}

const EMPTY = new Uint8Array(0);

/** The action a target's trace shows: a host-called export runs as sender 0, method 0 (docs/host-abi.md §7). */
function targetAction(target: ExecutionTarget): Action {
  return 'action' in target ? target.action : { sender: 0n, service: target.service, method: 0n, rawData: target.rawData ?? EMPTY };
}

/**
 * The one way the node runs service code: each request gets its own execution context, which is
 * metered, traced and disposed of here, whatever the caller does with the outcome. Writes go to
 * the store as the mode allows; undo levels around them are the caller's.
 */
export class Executor {
  constructor(readonly store: Store, readonly engine: Engine) {}

  run(request: ExecutionRequest): ExecutionResult {
    const sockets = request.sockets && new ContextSockets(request.sockets);
    const ctx = new ExecutionContext({
      mode: request.mode, store: this.store, engine: this.engine, budget: request.budget,
      sockets, expectedSignature: request.expectedSignature, runModeResults: request.runModeResults, answeredCalls: request.answeredCalls,
      // A context the node starts itself; it takes grown instances only for a query (its mode decides).
      acceptsGrownMemory: true,
    });
    let retval: Uint8Array = EMPTY;
    let error: Error | null = null;
    try {
      const target = request.target;
      retval = 'action' in target ? ctx.runAction(target.action) : ctx.runExport(target.service, target.export, target.rawData);
    } catch (err) {
      error = err as Error;
    } finally {
      ctx.dispose();
    }
    // A target that could not even start (an action that does not pack) has no trace of its own.
    const trace = ctx.trace ?? { ...newActionTrace(targetAction(request.target)), error: error?.message ?? null };
    return { retval, trace, error, fuelUsed: ctx.fuelUsed, sockets: sockets?.outcome() };
  }

  /** `run`, for a caller that wants only the return value: the error, if any, is thrown. */
  call(request: ExecutionRequest): Uint8Array {
    const result = this.run(request);
    if (result.error) throw result.error;
    return result.retval;
  }
}
