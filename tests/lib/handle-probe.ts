// Builds the handle-probe test service (tests/services/handle-probe.as.ts) and its scripts: each
// op is a u32 opcode and its operands; ops that answer add one field to the return value.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileStandalone } from './asc.js';
import { concat, field, u32, u64 } from './probe.js';

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'tests', 'services', 'handle-probe.as.ts');

let compiled: Promise<Uint8Array> | undefined;

export function handleProbeWasm(): Promise<Uint8Array> {
  compiled ??= compileStandalone(SOURCE, 'handle-probe');
  return compiled;
}

/** The probe's one method: run the script in rawData. */
export const RUN_SCRIPT = 1n;

/** A script; handles are registers, numbered in the order ops yield them. */
export class Script {
  private readonly ops: Uint8Array[] = [];

  private op(code: number, ...operands: Uint8Array[]): this {
    this.ops.push(u32(code), ...operands);
    return this;
  }

  open(db: number, prefix: Uint8Array, mode: number) { return this.op(1, u32(db), field(prefix), u32(mode)); }
  openAt(reg: number, prefix: Uint8Array, mode: number) { return this.op(2, u32(reg), field(prefix), u32(mode)); }
  close(reg: number) { return this.op(3, u32(reg)); }
  put(reg: number, key: Uint8Array, value: Uint8Array | string) { return this.op(4, u32(reg), field(key), field(value)); }
  remove(reg: number, key: Uint8Array) { return this.op(5, u32(reg), field(key)); }
  get(reg: number, key: Uint8Array) { return this.op(6, u32(reg), field(key)); }
  greaterEqual(reg: number, key: Uint8Array, match: number) { return this.op(7, u32(reg), field(key), u32(match)); }
  lessThan(reg: number, key: Uint8Array, match: number) { return this.op(8, u32(reg), field(key), u32(match)); }
  max(reg: number, key: Uint8Array) { return this.op(9, u32(reg), field(key)); }
  exportRegs(...regs: number[]) { return this.op(10, u32(regs.length), ...regs.map(u32)); }
  importHandles() { return this.op(11); }
  /** `flags` 1 and 2 change the run mode (docs/host-abi.md §6). */
  call(service: bigint, method: bigint, rawData: Uint8Array, flags = 0n) { return this.op(12, u64(service), u64(method), field(rawData), u64(flags)); }
  literal(handle: number) { return this.op(13, u32(handle)); }
  checkout() { return this.op(14); }
  commit() { return this.op(15); }
  exportRaw(packed: Uint8Array) { return this.op(16, field(packed)); }
  setMaxCpuTime(ns: bigint) { return this.op(17, u64(ns)); }
  socketSetFlags(fd: number, mask: number, value: number) { return this.op(18, u32(fd), u32(mask), u32(value)); }
  readFile(name: string) { return this.op(19, field(name)); }
  socketOpen(args: Uint8Array) { return this.op(20, field(args)); }
  socketSend(fd: number, data: Uint8Array, flags: number) { return this.op(21, u32(fd), field(data), u32(flags)); }
  clockTimeGet(id: number) { return this.op(22, u32(id)); }
  /** Answers a register's handle number. */
  handle(reg: number) { return this.op(23, u32(reg)); }
  /** Answers the clock's time, 8 bytes (aborts where the clock is refused). */
  time(id: number) { return this.op(24, u32(id)); }

  bytes(): Uint8Array {
    return concat(...this.ops);
  }
}

/** The fields of a script's answer. */
export function outputs(retval: Uint8Array): Uint8Array[] {
  const view = new DataView(retval.buffer, retval.byteOffset, retval.byteLength);
  const fields: Uint8Array[] = [];
  for (let pos = 0; pos < retval.length;) {
    const len = view.getUint32(pos, true);
    fields.push(retval.slice(pos + 4, pos + 4 + len));
    pos += 4 + len;
  }
  return fields;
}

/** A lookup's answer: undefined when nothing was found (then `keyAfterNone` is getKey's size). */
export function found(answer: Uint8Array): { key: Uint8Array; value: Uint8Array } | undefined {
  const klen = new DataView(answer.buffer, answer.byteOffset).getUint32(1, true);
  if (answer[0] === 0) {
    if (klen !== 0) throw new Error(`getKey gave ${klen} bytes after a lookup found nothing`);
    return undefined;
  }
  return { key: answer.slice(5, 5 + klen), value: answer.slice(5 + klen) };
}

export function u32Of(answer: Uint8Array): number {
  return new DataView(answer.buffer, answer.byteOffset).getUint32(0, true);
}
