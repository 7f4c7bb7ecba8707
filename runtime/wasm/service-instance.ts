import { CodeFlags, NONE_SIZE } from '../../host-api/abi/databases.js';
import { copyOfRange, viewOfRange } from '../../host-api/encoding/bytes.js';
import { accountNameFromNumber } from '../../host-api/names/index.js';
import { HostError } from './errors.js';
import { WebAssemblyJs, type WasmInstanceObject, type WasmMemory } from './admission/webassembly-api.js';
import { HandleTable } from './handles/handle-table.js';
import type { TrapLocator } from './trap-location.js';

const EMPTY = new Uint8Array(0);
const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** Owner prefixes by service, shared by every context (services are few; the bound is a guard). */
const ownerPrefixes = new Map<bigint, Uint8Array | null>();
const OWNER_PREFIXES_KEPT = 4096;

function ownerPrefixOf(service: bigint): Uint8Array | null {
  let prefix = ownerPrefixes.get(service);
  if (prefix !== undefined) return prefix;
  prefix = null;
  if (service >= 0n && service <= U64_MAX) {
    prefix = new Uint8Array(8);
    new DataView(prefix.buffer).setBigUint64(0, service);
  }
  if (ownerPrefixes.size >= OWNER_PREFIXES_KEPT) ownerPrefixes.clear();
  ownerPrefixes.set(service, prefix);
  return prefix;
}

/** An instance the engine lends a context; `release` gives it back. */
export interface LentInstance {
  readonly instance: WasmInstanceObject;
  readonly traps: TrapLocator;
  release(): void;
}

interface ServiceExports {
  readonly memory: WasmMemory;
  readonly called?: (receiver: bigint, sender: bigint) => void;
  readonly start?: (thisService: bigint) => void;
  readonly [name: string]: unknown;
}

/**
 * One service's wasm instance inside one execution context, with the result buffers of
 * docs/host-abi.md §2 (value V and key K) and bounds-checked access to its linear memory.
 */
export class ServiceInstance {
  /** The value buffer V. */
  value: Uint8Array = EMPTY;
  /** The key buffer K. */
  key: Uint8Array = EMPTY;
  started = false;
  readonly exports: ServiceExports;
  /**
   * The 8 bytes (the account, big-endian) that keys of the service's own prefix start with;
   * null when the service number is not a u64, so no key does. Read on every database access.
   */
  readonly ownerPrefix: Uint8Array | null;
  private accountName: string | undefined;
  private handleTable: HandleTable | undefined;
  /** A view of the whole linear memory; memory.grow detaches its buffer, leaving it empty. */
  private memoryView: Uint8Array = EMPTY;

  constructor(
    readonly service: bigint,
    readonly flags: bigint,
    private readonly linked: LentInstance,
  ) {
    this.exports = linked.instance.exports as unknown as ServiceExports;
    this.ownerPrefix = ownerPrefixOf(service);
    if (!(this.exports.memory instanceof WebAssemblyJs.Memory)) {
      throw new HostError('HOST_BAD_ARGUMENT', `service '${this.name}' does not export its memory`);
    }
  }

  /** ` at <file>:<line> in <function>` of a trap of this instance's code (trap-location.ts). */
  trapLocation(error: Error): string {
    return this.linked.traps.describe(error);
  }

  /** Called when the context ends: the instance leaves it (and goes back to its pool, if any). */
  release(): void {
    this.linked.release();
  }

  /** The service's account name (decoded only when a message needs it). */
  get name(): string {
    return (this.accountName ??= accountNameFromNumber(this.service));
  }

  /** The service's kv handles in this context (handle-generation modules, docs/host-abi.md §12.2). */
  get handles(): HandleTable {
    return (this.handleTable ??= new HandleTable());
  }

  get isPrivileged(): boolean {
    return (this.flags & CodeFlags.isPrivileged) !== 0n;
  }

  setResult(value: Uint8Array, key: Uint8Array = EMPTY): void {
    this.value = value;
    this.key = key;
  }

  clearResult(): void {
    this.value = EMPTY;
    this.key = EMPTY;
  }

  /** A lookup's result: V (and K) set and the value's size, or V cleared and NONE_SIZE. */
  resultOrNone(value: Uint8Array | undefined, key: Uint8Array = EMPTY): number {
    if (!value) {
      this.clearResult();
      return NONE_SIZE;
    }
    this.setResult(value, key);
    return value.length;
  }

  /** A view of memory [ptr, ptr + len); wasm passes i32s, so both are read as unsigned. */
  view(ptr: number, len: number, what: string): Uint8Array {
    const start = ptr >>> 0;
    const end = start + (len >>> 0);
    return this.memoryFor(start, end, what).subarray(start, end);
  }

  /** Writes `count` bytes of `data` from `offset` on to memory at `ptr`. */
  write(ptr: number, data: Uint8Array, offset: number, count: number, what: string): void {
    if (count === 0) return;
    const start = ptr >>> 0;
    this.memoryFor(start, start + count, what).set(viewOfRange(data, offset, offset + count), start);
  }

  /** The memory, checked to hold the range [start, end). */
  private memoryFor(start: number, end: number, what: string): Uint8Array {
    let memory = this.memoryView;
    // An empty view may be one whose buffer is detached, which even an empty range must not use.
    if (memory.length < end || memory.length === 0) {
      memory = this.memoryView = new Uint8Array(this.exports.memory.buffer);
      if (memory.length < end) {
        throw new HostError('HOST_BAD_ARGUMENT', `${what}: range ${start}+${end - start} is outside the memory of service '${this.name}' (${memory.length} bytes)`);
      }
    }
    return memory;
  }

  /** A copy of memory [ptr, ptr + len), for data the host keeps after the import returns. */
  copy(ptr: number, len: number, what: string): Uint8Array {
    const start = ptr >>> 0;
    const end = start + (len >>> 0);
    return copyOfRange(this.memoryFor(start, end, what), start, end);
  }
}
