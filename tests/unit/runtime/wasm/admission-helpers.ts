// Shared by the admission tests: WAT assembly, hand-built binaries, refusal assertions and
// metered instantiation.
import { parse } from '@bytecodealliance/jco-transpile/wasm-tools';
import * as assert from 'uvu/assert';
import {
  AdmissionError,
  admitModule,
  type AdmissionErrorCode,
  type AdmissionOptions,
} from '../../../../runtime/wasm/admission/index.js';
import { ExecutionMeter, type ExecutionBudget } from '../../../../runtime/wasm/execution-meter.js';
import { ByteWriter } from '../../../../runtime/wasm/admission/binary/byte-writer.js';
import { WebAssemblyJs } from '../../../../runtime/wasm/admission/webassembly-api.js';

export { WebAssemblyJs };

/** Assembles WebAssembly text (wasm-tools accepts every proposal, so refused features can be written). */
export function wat(text: string): Promise<Uint8Array> {
  return parse(text);
}

/** A binary module from raw sections: [id, payload bytes]. */
export function binaryModule(...sections: [id: number, payload: number[]][]): Uint8Array {
  const out = new ByteWriter().bytes(Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00));
  for (const [id, payload] of sections) out.u8(id).u32(payload.length).bytes(Uint8Array.from(payload));
  return out.view().slice();
}

/** A vector: its LEB128 count followed by the items' bytes. */
export function vec(...items: number[][]): number[] {
  return [...leb(items.length), ...items.flat()];
}

export function leb(value: number): number[] {
  return [...new ByteWriter().u32(value).view()];
}

export function name(text: string): number[] {
  return [...new ByteWriter().name(text).view()];
}

/** One function `(func)` of type 0 `() -> ()` whose body is `code` (without the final end). */
export function moduleWithCode(code: number[], locals: number[] = vec()): Uint8Array {
  const body = [...locals, ...code, 0x0b];
  return binaryModule([1, vec([0x60, 0x00, 0x00])], [3, vec([0x00])], [10, vec([...leb(body.length), ...body])]);
}

export function refusal(bytes: Uint8Array, options?: AdmissionOptions): AdmissionError {
  try {
    admitModule(bytes, options);
  } catch (error) {
    if (error instanceof AdmissionError) return error;
    throw error;
  }
  return assert.unreachable('the module was admitted') as never;
}

export function assertRefused(bytes: Uint8Array, code: AdmissionErrorCode, reason: RegExp, options?: AdmissionOptions): void {
  const error = refusal(bytes, options);
  assert.is(error.code, code, error.message);
  assert.match(error.message, reason);
}

export interface MeteredInstance {
  readonly exports: Record<string, (...args: unknown[]) => unknown>;
  readonly meter: ExecutionMeter;
}

/** Admits and instantiates a module with a fresh meter; `env` supplies host functions. */
export function instantiateMetered(bytes: Uint8Array, budget: ExecutionBudget, env: Record<string, unknown> = {}): MeteredInstance {
  const meter = new ExecutionMeter(budget);
  const admitted = admitModule(bytes);
  const module = new WebAssemblyJs.Module(admitted.bytes);
  const memory = admitted.memory && new WebAssemblyJs.Memory(admitted.memory);
  const instance = new WebAssemblyJs.Instance(module, { env, ...meter.importObject(memory) });
  return { exports: instance.exports as MeteredInstance['exports'], meter };
}

export function instantiatePlain(bytes: Uint8Array, env: Record<string, unknown> = {}): MeteredInstance['exports'] {
  const instance = new WebAssemblyJs.Instance(new WebAssemblyJs.Module(bytes), { env });
  return instance.exports as MeteredInstance['exports'];
}

/** Runs `action` and returns what it threw (failing when it returns). */
export function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return assert.unreachable('expected an exception') as never;
}
