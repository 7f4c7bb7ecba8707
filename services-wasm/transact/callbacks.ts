// Callbacks (docs/administration.md §4.3): objective ones are stored here and run by transact (sender
// transact): onTransaction ones at the end of every transaction, onBlock ones at the end of every
// block (endBlock, docs/system-services.md "Blocks"); subjective ones (no sender) are kept in the
// native notify rows that the node runs in callback mode. A callback is registered at most once.

import { Action, DbId, Table, abort, callActionAs, check, getService, kv, pack, unpack } from "../sdk/index";
import { nativeKeyOf, NativeTable } from "../sdk/native/index";
import { CALLBACKS_TABLE } from "./tables";

const ON_TRANSACTION: u8 = 0;
const ON_BLOCK: u8 = 1;

/**
 * The callbacks of one type: the native notify row (docs/host-abi.md §4, table 8) the node reads the
 * subjective ones from, and the row of transact's own table of objective ones.
 */
@fracpack
class CallbackRow {
  constructor(public type: u32 = 0, public actions: Array<Action> = []) {}
}

const objective = new Table<CallbackRow, u32>(CALLBACKS_TABLE, (row: CallbackRow): u32 => row.type);

function indexOf(actions: Array<Action>, act: Action): i32 {
  const packed = pack<Action>(act);
  for (let i = 0; i < actions.length; i++) {
    const other = pack<Action>(actions[i]);
    if (other.length == packed.length && memory.compare(other.dataStart, packed.dataStart, packed.length) == 0) return i;
  }
  return -1;
}

function checkType(type: u8): void {
  check(type == ON_TRANSACTION || type == ON_BLOCK, "unknown callback type");
}

/** The registered actions of one kind, read from and written back to their row. */
interface CallbackList {
  actions(): Array<Action>;
  save(actions: Array<Action>): void;
}

class ObjectiveList implements CallbackList {
  constructor(public type: u32) {}

  actions(): Array<Action> {
    const row = objective.get(this.type);
    return row !== null ? row.actions : [];
  }

  save(actions: Array<Action>): void {
    if (actions.length == 0) objective.remove(this.type);
    else objective.put(new CallbackRow(this.type, actions));
  }
}

class SubjectiveList implements CallbackList {
  key: Uint8Array;

  constructor(public type: u32) {
    this.key = nativeKeyOf(NativeTable.notify, type);
  }

  actions(): Array<Action> {
    const row = kv.get(DbId.native, this.key);
    return row !== null ? unpack<CallbackRow>(row).actions : [];
  }

  save(actions: Array<Action>): void {
    if (actions.length == 0) kv.remove(DbId.native, this.key);
    else kv.put(DbId.native, this.key, pack<CallbackRow>(new CallbackRow(this.type, actions)));
  }
}

function listOf(type: u8, isObjective: bool, act: Action): CallbackList {
  checkType(type);
  if (!isObjective) {
    check(act.sender == 0, "subjective callback must have no sender");
    return new SubjectiveList(type);
  }
  check(act.sender == getService(), "objective callback must have transact as sender");
  return new ObjectiveList(type);
}

/** Registers `act`; registering it again changes nothing. */
export function addCallback(type: u8, isObjective: bool, act: Action): void {
  const list = listOf(type, isObjective, act);
  const actions = list.actions();
  if (indexOf(actions, act) >= 0) return;
  actions.push(act);
  list.save(actions);
}

export function removeCallback(type: u8, isObjective: bool, act: Action): void {
  const list = listOf(type, isObjective, act);
  const actions = list.actions();
  const at = indexOf(actions, act);
  if (at < 0) abort("callback not found");
  actions.splice(at, 1);
  list.save(actions);
}

function runObjective(type: u32): void {
  const actions = new ObjectiveList(type).actions();
  for (let i = 0; i < actions.length; i++) callActionAs(actions[i]);
}

/** Runs the objective onTransaction callbacks; a failing one aborts the transaction. */
export function runTransactionCallbacks(): void {
  runObjective(ON_TRANSACTION);
}

/** Runs the objective onBlock callbacks; a failing one aborts the block. */
export function runBlockCallbacks(): void {
  runObjective(ON_BLOCK);
}
