// Compiles AssemblyScript test programs against the real service SDK with the build script's
// asc options, and runs their exports without a host: every host import throws, so a program
// can only compute in wasm. An aborting program (abortMessage) throws WasmAbort with its message.
//
// A program gets a prelude with `input` (bytes the test writes), `output` (bytes the test reads)
// and the SDK imported as `sdk`; its functions read `input` and set `output`.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

// The part of the WebAssembly JS API used here (lib es2022 and @types/node declare none of it).
export interface WasmModule {
  readonly __brand?: 'WebAssembly.Module';
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WebAssemblyApi {
  Module: {
    imports(module: WasmModule): { module: string; name: string; kind: string }[];
    exports(module: WasmModule): { name: string; kind: string }[];
    customSections(module: WasmModule, name: string): ArrayBuffer[];
  };
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
}
export const WasmApi = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

export interface CompiledService {
  binary: Uint8Array;
  module: WasmModule;
  /** The service schema the transform embedded, or null. */
  schema: unknown;
}

interface BuildScript {
  compileService(entry: string, sources?: Record<string, string>, projectDir?: string, cacheDir?: string): Promise<CompiledService>;
  /** Where `make services` and the tests keep compiled modules by what their compile read (runtime/build/compile-cache.ts). */
  readonly COMPILE_CACHE: string;
  serviceNames(): string[];
}

/** The build script, loaded at run time (it is plain JS outside the TypeScript project). */
export async function buildScript(): Promise<BuildScript> {
  return (await import(pathToFileURL(join(ROOT, 'scripts', 'build-services.js')).href)) as BuildScript;
}

export class WasmAbort extends Error {}

const PRELUDE = `
import * as sdk from "../../../../services-wasm/sdk/index";
let input = new Uint8Array(0);
let output = new Uint8Array(0);
export function inputBuffer(length: i32): usize { input = new Uint8Array(length); return input.dataStart; }
export function outputPointer(): usize { return output.dataStart; }
export function outputLength(): i32 { return output.length; }
`;

type Export = (...args: (number | bigint)[]) => number | bigint | undefined;

export class Program {
  private readonly exports: Record<string, Export> & { memory: WasmMemory };

  constructor(module: WasmModule) {
    const env: Record<string, (...args: number[]) => never> = {};
    for (const { module: from, name } of WasmApi.Module.imports(module)) {
      if (from !== 'env') throw new Error(`unexpected import ${from}.${name}`);
      env[name] = name === 'abortMessage'
        ? (ptr, len) => { throw new WasmAbort(new TextDecoder().decode(this.bytes(ptr!, len!))); }
        : () => { throw new Error(`${name} not available`); };
    }
    const instance = new WasmApi.Instance(module, { env });
    this.exports = instance.exports as typeof this.exports;
  }

  private bytes(ptr: number, length: number): Uint8Array {
    return new Uint8Array(this.exports.memory.buffer, ptr, length).slice();
  }

  /** Calls `name` with `input` in the input buffer and returns the output bytes. */
  run(name: string, input: Uint8Array = new Uint8Array(0), ...args: (number | bigint)[]): Uint8Array {
    const ptr = this.exports.inputBuffer!(input.length) as number;
    new Uint8Array(this.exports.memory.buffer, ptr, input.length).set(input);
    this.call(name, ...args);
    return this.bytes(this.exports.outputPointer!() as number, this.exports.outputLength!() as number);
  }

  /** Calls an export directly. */
  call(name: string, ...args: (number | bigint)[]): number | bigint | undefined {
    const fn = this.exports[name];
    if (typeof fn !== 'function') throw new Error(`the program exports no ${name}`);
    return fn(...args);
  }

  /** The abort message of `run(name, input, ...args)`, or undefined when it does not abort. */
  abortOf(name: string, input?: Uint8Array, ...args: (number | bigint)[]): string | undefined {
    try {
      this.run(name, input, ...args);
      return undefined;
    } catch (err) {
      if (err instanceof WasmAbort) return err.message;
      throw err;
    }
  }
}

const entries = new Map<string, Promise<CompiledService>>();

/**
 * The module of a fixed entry (a path from the repository root, its sources overridden by
 * `sources`), compiled once per entry, sources and process.
 */
export function compiledEntry(entry: string, sources?: Record<string, string>): Promise<CompiledService> {
  const key = sources ? `${entry}\0${JSON.stringify(sources)}` : entry;
  let p = entries.get(key);
  if (!p) {
    p = buildScript().then((build) => build.compileService(entry, sources, undefined, build.COMPILE_CACHE));
    entries.set(key, p);
  }
  return p;
}

/** A service folder's module as `make services` builds it, compiled once per process. */
export function compiledService(name: string): Promise<CompiledService> {
  return compiledEntry(`services-wasm/${name}/index.ts`);
}

const compiled = new Map<string, Promise<Program>>();

/**
 * Compiles `body` (after the prelude) as tests/unit/services-wasm/programs/<name>.ts; compiled once
 * per name and process, so test files can share a program.
 */
export function program(name: string, body: string): Promise<Program> {
  let p = compiled.get(name);
  if (!p) {
    p = (async () => {
      const entry = `tests/unit/services-wasm/programs/${name}.ts`;
      const build = await buildScript();
      const { module } = await build.compileService(entry, { [entry]: PRELUDE + body }, undefined, build.COMPILE_CACHE);
      return new Program(module);
    })();
    compiled.set(name, p);
  }
  return p;
}

/** Text as UTF-8 bytes (the usual input of string-taking program functions). */
export { utf8Bytes as utf8 } from '../../../host-api/encoding/utf8.js';
