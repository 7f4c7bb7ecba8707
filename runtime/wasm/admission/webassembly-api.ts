// The WebAssembly JS API, typed. With lib es2022 and @types/node 20 TypeScript knows no
// `WebAssembly` global; this handle types the part admission and the host runtime use without
// declaring a global that other code might declare too.

export interface WasmGlobal<T> {
  value: T;
}

export interface WasmModuleObject {
  readonly __brand?: 'WebAssembly.Module';
}

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

export interface WasmInstanceObject {
  readonly exports: Record<string, unknown>;
}

export interface WebAssemblyApi {
  validate(bytes: Uint8Array): boolean;
  Module: {
    new (bytes: Uint8Array): WasmModuleObject;
    exports(module: WasmModuleObject): { name: string; kind: string }[];
    customSections(module: WasmModuleObject, name: string): ArrayBuffer[];
  };
  Instance: new (module: WasmModuleObject, imports?: Record<string, Record<string, unknown>>) => WasmInstanceObject;
  Global: {
    new (descriptor: { value: 'i32'; mutable: true }, value: number): WasmGlobal<number>;
    new (descriptor: { value: 'i64'; mutable: true }, value: bigint): WasmGlobal<bigint>;
  };
  Memory: new (descriptor: { initial: number; maximum?: number }) => WasmMemory;
  RuntimeError: new (message?: string) => Error;
}

export const WebAssemblyJs = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
