import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isTransactionMode, type Mode } from '../../host-api/abi/databases.js';
import { accountNumberFromName } from '../../host-api/names/index.js';
import { Action, type ActionTrace } from '../../host-api/types/index.js';
import { eventPosition, eventsSince, type EmittedEvent } from '../chain/event-log.js';
import type { ActionInput } from './action-input.js';
import { BootedChain, type TestBootOptions } from './booted-chain.js';
import { LmdbStore } from '../db/lmdb-store.js';
import type { Store } from '../db/store.js';
import { admitModule } from '../wasm/admission/index.js';
import type { ExecutionBudget } from '../wasm/execution-meter.js';
import { Engine } from '../wasm/engine.js';
import { defaultAdmittedCodeDir } from '../wasm/admitted-code-cache.js';
import type { ExpectedSignature } from '../wasm/execution-context.js';
import { Executor, type ExecutionTarget } from '../wasm/executor.js';
import { RunModeResults } from '../wasm/run-mode-results.js';
import { writeServiceCode } from '../wasm/service-code.js';
import { consoleOf } from '../wasm/trace.js';

// The in-process harness for service authors. TestChain.boot: a whole chain (the default bundle
// booted, blocks, a clock, HTTP, signatures; booted-chain.ts). TestChain.open: single actions, no
// boot, HTTP or blocks: deploy .wasm files into a temporary LMDB store and run actions in any
// mode, getting back the return value, the trace, the console output and the events the action
// emitted.

export interface RunOptions {
  mode?: Mode;
  budget?: ExecutionBudget;
  /** VER mode: the signature check the verify service is expected to make, with its verdict. */
  expectedSignature?: ExpectedSignature;
}

export interface RunResult {
  /** The action's return value (empty when it failed). */
  readonly retval: Uint8Array;
  readonly trace: ActionTrace;
  readonly console: string;
  /** The error message when the action failed, else undefined. */
  readonly error?: string;
  /** The stable code of the error (SERVICE_ABORTED, WASM_FUEL_EXHAUSTED, ...). */
  readonly errorCode?: string;
  readonly events: readonly EmittedEvent[];
  /** Instructions (fuel) the run used: identical on every node for the same state and action. */
  readonly fuelUsed: bigint;
}

export class TestChain {
  readonly engine = new Engine({ admittedCodeDir: defaultAdmittedCodeDir() });
  private readonly executor: Executor;

  private constructor(readonly store: Store, private readonly directory: string | undefined) {
    this.executor = new Executor(store, this.engine);
  }

  /**
   * A whole chain in this process: the default bundle (or `options.bundle`) and the test's
   * services booted into a temporary store, with no ports and no child process.
   */
  static boot(options?: TestBootOptions): Promise<BootedChain> {
    return BootedChain.boot(options);
  }

  /** A store for single actions in a fresh temporary directory (removed by close), or in `directory` if given. */
  static open(directory?: string): TestChain {
    const dir = directory ?? mkdtempSync(join(tmpdir(), 'tsibase-test-'));
    return new TestChain(LmdbStore.open(dir), directory ? undefined : dir);
  }

  /**
   * Installs `code` as the account's service with `flags` (isPrivileged = 1, isVerify = 2).
   * A module that admission refuses throws its AdmissionError and changes nothing.
   */
  deploy(account: bigint | string, code: Uint8Array, flags = 0n): Uint8Array {
    admitModule(code);
    const number = typeof account === 'string' ? accountNumberFromName(account) : account;
    const hash = writeServiceCode(this.store, number, code, flags);
    this.store.commit();
    return hash;
  }

  /**
   * Runs one action. In transaction mode its writes are committed when it succeeds and rolled
   * back when it fails; speculative runs are always rolled back; query and callback runs cannot
   * write chain state.
   */
  run(input: ActionInput, options: RunOptions = {}): RunResult {
    const action = Action.unpack(Action.pack(input));
    return this.execute(options, { action });
  }

  /**
   * Runs a host-called export of `service` (processTransaction, serve, ...): the guest reads an
   * action with sender 0, method 0 and `rawData`. Commits and rolls back like `run`.
   */
  runExport(service: bigint | string, exportName: string, rawData: Uint8Array, options: RunOptions = {}): RunResult {
    const number = typeof service === 'string' ? accountNumberFromName(service) : service;
    return this.execute(options, { service: number, export: exportName, rawData });
  }

  async close(): Promise<void> {
    await this.store.close();
    if (this.directory) rmSync(this.directory, { recursive: true, force: true });
  }

  private execute(options: RunOptions, target: ExecutionTarget): RunResult {
    const mode = options.mode ?? 'transaction';
    const before = eventPosition(this.store);
    const checkpoint = this.store.checkpoint();
    // As a producer runs it: run-mode calls run their callees (docs/host-abi.md §6).
    const runModeResults = isTransactionMode(mode) ? RunModeResults.recording() : undefined;
    const { retval, trace, error, fuelUsed } = this.executor.run({ mode, target, budget: options.budget, expectedSignature: options.expectedSignature, runModeResults });
    const events = error ? [] : eventsSince(this.store, before);
    if (error || mode === 'speculative') this.store.rollback(checkpoint);
    else this.store.release(checkpoint);
    this.store.commit();
    return { retval, trace, console: consoleOf(trace), error: error?.message, errorCode: error?.code, events, fuelUsed };
  }
}
