import { CodeFlags, Limits, isSubjectiveMode, isTransactionMode, type Mode } from '../../host-api/abi/databases.js';
import { accountNameFromNumber } from '../../host-api/names/index.js';
import { FracpackError } from '../../host-api/fracpack/index.js';
import { Action, type ActionTrace } from '../../host-api/types/index.js';
import { TsibaseError } from '../../host-api/errors.js';
import type { ExpectedSignature } from '../crypto/signature-verdicts.js';
import type { Store } from '../db/store.js';
import { TemporaryDb } from '../db/temporary-db.js';
import { ExecutionMeter, fuelValueOf, type ExecutionBudget, type FuelValue } from './execution-meter.js';
import type { Engine } from './engine.js';
import { WebAssemblyJs } from './admission/webassembly-api.js';
import { HostError } from './errors.js';
import { HandleTransfer } from './handles/handle-transfer.js';
import { sizeLimitsOf } from './host-imports/db-access.js';
import type { Frame, HostState, SizeLimits, SocketHost } from './host-state.js';
import type { RunModeResults } from './run-mode-results.js';
import { serviceCodeOf } from './service-code.js';
import { ServiceInstance } from './service-instance.js';
import { appendAction, newActionTrace } from './trace.js';

export type { ExpectedSignature } from '../crypto/signature-verdicts.js';

const EMPTY = new Uint8Array(0);

/**
 * Contexts running now (on this thread, any engine). Only while one runs can a context start
 * inside it and have counters to give back: reading and writing an i64 global costs a BigInt
 * each, so a context that is not nested skips them.
 */
let running = 0;

/** Fuel of one context when the caller sets none: ample for real work, short for a runaway loop. */
export const DEFAULT_FUEL = 500_000_000n;

export interface ContextOptions {
  readonly mode: Mode;
  readonly store: Store;
  readonly engine: Engine;
  readonly budget?: ExecutionBudget;
  /** Connections a privileged service may write to in subjective modes. */
  readonly sockets?: SocketHost;
  /** VER mode: the signature check the verify service is expected to make, with its verdict. */
  readonly expectedSignature?: ExpectedSignature;
  /** TX/SPEC: where the transaction's run-mode calls record or replay their results; without it they are refused. */
  readonly runModeResults?: RunModeResults;
  /** TX/SPEC: calls the host answers itself, without running the callee. */
  readonly answeredCalls?: AnsweredCalls;
  /**
   * A context the node starts itself (not a transaction's run-mode call): in RPC mode its
   * instances may come with a memory that grew in an earlier query (docs/host-abi.md §7).
   */
  readonly acceptsGrownMemory?: boolean;
}

/**
 * The answer the host gives to a `call` by `caller` of `action` instead of running it, or
 * undefined to run it: only a development fork's auth bypass has one (runtime/chain/auth-bypass.ts).
 */
export type AnsweredCalls = (caller: bigint, action: Action) => Uint8Array | undefined;

/** `call` flags (docs/host-abi.md §6): the callee runs in RPC or CB mode. */
const RUN_MODE_OF_FLAGS: ReadonlyMap<bigint, Mode> = new Map([[1n, 'rpc'], [2n, 'callback']]);

/**
 * One transaction, query, callback or signature check: its mode, its fuel and stack meter, the
 * service instances it has created (fresh memory each), the call stack and the trace. It is the
 * HostState its instances' imports act on (through their Callers), at the instance at the top of
 * the stack. Made and disposed of by the Executor alone.
 */
export class ExecutionContext implements HostState {
  readonly mode: Mode;
  readonly store: Store;
  readonly meter: ExecutionMeter;
  readonly sockets: SocketHost | undefined;
  readonly expectedSignature: ExpectedSignature | undefined;
  /** The trace of the target, once it has started. */
  trace: ActionTrace | undefined;
  /** Checkpoints of the open subjective views, innermost last. */
  readonly subjectiveViews: number[] = [];
  /** Monotonic time (ns) when the context began; taken only where services may ask for CPU time. */
  readonly startedAt: bigint | undefined;
  readonly handleTransfer = new HandleTransfer();
  /**
   * Whether traces get each action's time: only transactions report their traces (other
   * contexts keep theirs for the console), and the clock read twice per action showed in
   * profiles of queries (0.6% of the in-process http query).
   */
  private readonly timesActions: boolean;

  private readonly runModeResults: RunModeResults | undefined;
  private readonly answeredCalls: AnsweredCalls | undefined;
  private readonly acceptsGrownMemory: boolean;
  private limits: SizeLimits | undefined;
  private temporaryDb: TemporaryDb | undefined;
  private readonly engine: Engine;
  private readonly instances = new Map<bigint, ServiceInstance>();
  private readonly stack: Frame[] = [];
  /** The fuel left while the context is not running (the engine's counters hold it while it runs). */
  private fuelLeft: FuelValue;

  constructor(options: ContextOptions) {
    this.mode = options.mode;
    this.store = options.store;
    this.engine = options.engine;
    this.sockets = options.sockets;
    this.expectedSignature = options.expectedSignature;
    this.runModeResults = options.runModeResults;
    this.answeredCalls = options.answeredCalls;
    this.acceptsGrownMemory = options.acceptsGrownMemory === true && options.mode === 'rpc';
    this.meter = new ExecutionMeter(options.budget ?? { fuel: DEFAULT_FUEL }, this.engine.meterGlobals);
    this.fuelLeft = fuelValueOf(this.meter.budget.fuel);
    this.startedAt = isSubjectiveMode(this.mode) ? process.hrtime.bigint() : undefined;
    this.timesActions = isTransactionMode(this.mode);
  }

  /** Fuel the context has used so far (read between runs). */
  get fuelUsed(): bigint {
    return this.meter.budget.fuel - BigInt(this.fuelLeft);
  }

  /**
   * Runs `body` with the context's budget in the engine's meter counters; the counters' earlier
   * values (an outer context's, when one is running) are given back afterwards.
   */
  private metered<T>(body: () => T): T {
    const meter = this.meter;
    const nested = running > 0;
    const outerFuel = nested ? meter.fuelValue() : 0;
    const outerStack = nested ? meter.stack.value : 0;
    meter.loadFuel(this.fuelLeft);
    meter.stack.value = meter.budget.stackBytes;
    running++;
    try {
      return body();
    } finally {
      running--;
      this.fuelLeft = meter.fuelValue();
      if (nested) {
        meter.loadFuel(outerFuel);
        meter.stack.value = outerStack;
      }
    }
  }

  /** Key and value size limits, read once per context: a change takes effect for the next one. */
  get sizeLimits(): SizeLimits {
    return (this.limits ??= sizeLimitsOf(this.store));
  }

  /** The context's temporary database (67), created when first used. */
  get temporary(): TemporaryDb {
    return (this.temporaryDb ??= new TemporaryDb());
  }

  /** The innermost running action. */
  get frame(): Frame {
    const frame = this.stack[this.stack.length - 1];
    if (!frame) throw new HostError('HOST_BAD_ARGUMENT', 'a host import was called with no action running');
    return frame;
  }

  /** Runs `action` on behalf of the host (any sender); returns its return value. */
  runAction(action: Action): Uint8Array {
    const packed = Action.pack(action);
    return this.runTopLevel(action, packed, (inst) => this.invokeCalled(inst, action));
  }

  /**
   * Invokes a host-called export (processTransaction, serve, recv) of `service`; the action the
   * guest reads has sender 0, method 0 and `rawData` as given (docs/host-abi.md §7).
   */
  runExport(service: bigint, exportName: string, rawData: Uint8Array = EMPTY): Uint8Array {
    const action: Action = { sender: 0n, service, method: 0n, rawData };
    return this.runTopLevel(action, Action.pack(action), (inst) => {
      const fn = inst.exports[exportName];
      if (typeof fn !== 'function') throw new HostError('HOST_BAD_ARGUMENT', `service '${inst.name}' has no export ${exportName}`);
      (fn as () => void)();
    });
  }

  /** The `call` import: runs a packed Action for the current service, in a run mode of `flags` (docs/host-abi.md §6). */
  call(packed: Uint8Array, flags = 0n): Uint8Array {
    const caller = this.frame;
    this.meter.reserveStack(Limits.callStackReserve);
    try {
      let action: Action;
      try {
        // `packed` is the host's own copy, kept unchanged as the frame's action: rawData may view it.
        action = Action.unpack(packed, { views: true });
      } catch (err) {
        if (err instanceof FracpackError) throw new HostError('HOST_BAD_ARGUMENT', `call: malformed action: ${err.message}`);
        throw err;
      }
      const runMode = flags === 0n ? undefined : this.runModeOf(flags);
      if (action.sender !== caller.instance.service && !caller.instance.isPrivileged) {
        throw new HostError('HOST_ACCESS_DENIED',
          `call: service '${caller.instance.name}' may not send an action as '${accountNameFromNumber(action.sender)}' (not privileged)`);
      }
      if (runMode) return this.callInRunMode(action, runMode, caller.trace);
      const answer = this.answeredCalls?.(caller.instance.service, action);
      if (answer !== undefined) {
        // The trace shows the call, answered without a run of the callee.
        appendAction(caller.trace, { ...newActionTrace(action), rawRetval: answer });
        return answer;
      }
      return this.execute(action, packed, caller.trace, (inst) => this.invokeCalled(inst, action));
    } finally {
      this.meter.releaseStack(Limits.callStackReserve);
    }
  }

  /**
   * Ends the context: discards open subjective views (and with the context its temporary
   * database) and hands its instances back to the engine for reuse.
   */
  dispose(): void {
    this.closeViewsAbove(0);
    for (const instance of this.instances.values()) instance.release();
    this.instances.clear();
  }

  admitCode(codeHash: Uint8Array, code: Uint8Array): void {
    this.engine.admitCode(codeHash, code);
  }

  /** The mode `call` flags ask for, where this context may change its mode; else the refusal. */
  private runModeOf(flags: bigint): Mode {
    const mode = RUN_MODE_OF_FLAGS.get(flags);
    if (!mode) throw new HostError('HOST_BAD_ARGUMENT', `call: invalid call flags: ${flags}`);
    if (!isTransactionMode(this.mode)) throw new HostError('HOST_ACCESS_DENIED', `call: can only change run mode in a transaction (this is ${this.mode} mode)`);
    if (!this.runModeResults) throw new HostError('HOST_ACCESS_DENIED', 'call: this execution is no transaction of a block, so it has nowhere to record a run-mode call\'s result');
    return mode;
  }

  /**
   * A call that changes the run mode (docs/host-abi.md §6): the callee runs in a context of its
   * own (its own instances, no handles crossing either way, the caller's fuel and stack left as
   * its budget). Where the transaction runs first its value is recorded and its fuel charged to
   * the caller; on replay the block's value is returned instead, after running a CB callee whose
   * errors are ignored.
   */
  private callInRunMode(action: Action, mode: Mode, parentTrace: ActionTrace): Uint8Array {
    const results = this.runModeResults!;
    this.handleTransfer.drop();
    try {
      if (!results.isReplaying) {
        const value = this.runInOwnContext(action, mode, parentTrace, true);
        results.record(value);
        return value;
      }
      if (mode === 'callback') {
        try {
          this.runInOwnContext(action, mode, parentTrace, false);
        } catch {
          // On replay a callback's failure is the node's own business: the block's value stands.
        }
      } else {
        appendAction(parentTrace, newActionTrace(action));
      }
      const value = results.take();
      const trace = parentTrace.innerTraces[parentTrace.innerTraces.length - 1]!.inner;
      if ('ActionTrace' in trace) trace.ActionTrace.rawRetval = value;
      return value;
    } finally {
      this.handleTransfer.drop();
    }
  }

  /** Runs `action` in a new context of `mode` whose writes stay only when it succeeds; `charged`: its fuel counts as the caller's. */
  private runInOwnContext(action: Action, mode: Mode, parentTrace: ActionTrace, charged: boolean): Uint8Array {
    const own = new ExecutionContext({
      mode, store: this.store, engine: this.engine,
      budget: { fuel: BigInt(this.meter.fuelValue()), stackBytes: Math.max(0, this.meter.stack.value) },
    });
    const checkpoint = this.store.checkpoint();
    try {
      const value = own.runAction(action);
      this.store.release(checkpoint);
      return value;
    } catch (err) {
      this.store.rollback(checkpoint);
      throw err;
    } finally {
      own.dispose();
      if (own.trace) appendAction(parentTrace, own.trace);
      if (charged) this.meter.chargeFuel(own.fuelUsed);
    }
  }

  private runTopLevel(action: Action, packed: Uint8Array, invoke: (inst: ServiceInstance) => void): Uint8Array {
    const trace = (this.trace = newActionTrace(action));
    return this.metered(() => this.execute(action, packed, undefined, invoke, trace));
  }

  private invokeCalled(inst: ServiceInstance, action: Action): void {
    if (!inst.exports.called) throw new HostError('HOST_BAD_ARGUMENT', `service '${inst.name}' has no export called`);
    inst.exports.called(action.service, action.sender);
  }

  private execute(
    action: Action,
    packed: Uint8Array,
    parentTrace: ActionTrace | undefined,
    invoke: (inst: ServiceInstance) => void,
    trace: ActionTrace = newActionTrace(action),
  ): Uint8Array {
    if (parentTrace) appendAction(parentTrace, trace);
    const started = this.timesActions ? process.hrtime.bigint() : 0n;
    try {
      const instance = this.instanceOf(action.service);
      const frame: Frame = { instance, packedAction: packed, trace, subjectiveDepth: this.subjectiveViews.length, retval: EMPTY };
      this.stack.push(frame);
      this.handleTransfer.cross();
      try {
        if (!instance.started) {
          instance.started = true;
          instance.exports.start?.(action.service);
        }
        invoke(instance);
      } finally {
        this.handleTransfer.cross();
        this.stack.pop();
        this.closeViewsAbove(frame.subjectiveDepth);
      }
      trace.rawRetval = frame.retval;
      return frame.retval;
    } catch (err) {
      const error = this.classify(err, action);
      trace.error = error.message;
      throw error;
    } finally {
      if (this.timesActions) trace.totalTime = process.hrtime.bigint() - started;
    }
  }

  /** Turns a wasm trap into the limit error behind it, or a SERVICE_TRAPPED error; host errors pass. */
  private classify(err: unknown, action: Action): Error {
    if (err instanceof TsibaseError) return err;
    const limit = this.meter.limitError();
    if (limit) return limit;
    const message = err instanceof Error ? err.message : String(err);
    // A trap of the service's own code (a callee's trap reached here as its TsibaseError).
    const instance = this.instances.get(action.service);
    const where = instance && err instanceof WebAssemblyJs.RuntimeError ? instance.trapLocation(err) : '';
    return new HostError('SERVICE_TRAPPED', `service '${accountNameFromNumber(action.service)}' trapped: ${message}${where}`);
  }

  private closeViewsAbove(depth: number): void {
    while (this.subjectiveViews.length > depth) this.store.subjective.rollback(this.subjectiveViews.pop()!);
  }

  private instanceOf(service: bigint): ServiceInstance {
    const existing = this.instances.get(service);
    if (existing) return existing;
    if (this.instances.size >= Limits.maxServicesPerContext) {
      throw new HostError('HOST_LIMIT', `more than ${Limits.maxServicesPerContext} services in one execution context`);
    }
    const code = serviceCodeOf(this.store, service);
    if (!code) throw new HostError('SERVICE_NOT_FOUND', `service '${accountNameFromNumber(service)}' has no code`);
    if (this.mode === 'verify' && (code.flags & CodeFlags.isVerify) === 0n) {
      throw new HostError('HOST_ACCESS_DENIED', `service '${accountNameFromNumber(service)}' is not a verify service and cannot run in verify mode`);
    }
    const instance = new ServiceInstance(service, code.flags, this.engine.instantiate(code.codeHash, code.code, this, this.acceptsGrownMemory));
    this.instances.set(service, instance);
    return instance;
  }
}
