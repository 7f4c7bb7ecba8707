// The boot states of docs/administration.md §3: after startBoot only the listed transactions are accepted, in
// order; finishBoot turns auth checking on and writes the chain's default native configuration.

import { Checksum256, DbId, check, kv, pack } from "../sdk/index";
import { getStatus, nativeTablePrefix, NativeTable, WasmConfig } from "../sdk/native/index";
import { SingletonTable, STATUS_TABLE } from "./tables";

@fracpack
export class TransactStatus {
  constructor(
    /** Set by finishBoot: top-level actions and runAs go through the auth interface. */
    public enforceAuth: bool = false,
    /** The ids still expected, in order, between startBoot and finishBoot. */
    public bootTransactions: Array<Checksum256> | null = null,
  ) {}
}

const statusTable = new SingletonTable<TransactStatus>(STATUS_TABLE);

/** The native config row (docs/host-abi.md §10). */
@fracpack
export class ConfigRow {
  constructor(public maxKeySize: u32 = 0, public maxValueSize: u32 = 0) {}
}

// The chain defaults of docs/host-abi.md §10.
const MAX_KEY_SIZE: u32 = 128;
const MAX_VALUE_SIZE: u32 = 8 << 20;

/**
 * psibase's wasm config row defaults (docs/chain.md §4): the consensus carries the proof wasm
 * config, so it must be psibase's for block ids to match; the node enforces its own limits.
 */
function defaultWasmConfig(): WasmConfig {
  const config = new WasmConfig();
  config.numExecutionMemories = 32;
  config.vmOptions.maxMutableGlobalBytes = 1024;
  config.vmOptions.maxPages = 512;
  config.vmOptions.maxTableElements = 8192;
  config.vmOptions.maxStackBytes = 1 << 20;
  return config;
}


export function startBoot(bootTransactions: Array<Checksum256>): void {
  check(statusTable.get() === null, "already started");
  statusTable.put(new TransactStatus(false, bootTransactions));
}

export function finishBoot(): void {
  const status = statusTable.get();
  if (status === null) {
    check(getStatus().head === null, "The boot process must use startBoot when split across multiple blocks");
  } else {
    check(!status.enforceAuth, "boot is already finished");
    const pending = status.bootTransactions;
    check(pending === null || pending.length == 0, "Not all boot transactions have been run");
  }
  statusTable.put(new TransactStatus(true, null));
  kv.put(DbId.native, nativeTablePrefix(NativeTable.config), pack<ConfigRow>(new ConfigRow(MAX_KEY_SIZE, MAX_VALUE_SIZE)));
  const wasmConfig = pack<WasmConfig>(defaultWasmConfig());
  kv.put(DbId.native, nativeTablePrefix(NativeTable.transactionWasmConfig), wasmConfig);
  kv.put(DbId.native, nativeTablePrefix(NativeTable.proofWasmConfig), wasmConfig);
}

/** transact's status row (null until startBoot or finishBoot writes it). */
export function transactStatus(): TransactStatus | null {
  return statusTable.get();
}

/** Whether `status` says actions are authorized (finishBoot has run). */
export function authOn(status: TransactStatus | null): bool {
  return status !== null && status.enforceAuth;
}

export function enforcesAuth(): bool {
  return authOn(statusTable.get());
}

/** Whether startBoot's list still has transactions to come (only those are accepted then). */
export function bootListActive(status: TransactStatus | null): bool {
  if (status === null) return false;
  const pending = status.bootTransactions;
  return pending !== null && pending.length > 0;
}

/**
 * While the boot list is active: the transaction must be the next listed one, which it then
 * consumes; a speculative run only needs to be listed.
 */
export function acceptBootTransaction(status: TransactStatus, id: Checksum256, speculative: bool): void {
  const pending = status.bootTransactions!;
  if (speculative) {
    let listed = false;
    for (let i = 0; i < pending.length && !listed; i++) listed = pending[i].equals(id);
    check(listed, "Wrong transaction during boot");
    return;
  }
  check(pending[0].equals(id), "Wrong transaction during boot");
  pending.shift();
  statusTable.put(status);
}
