import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TsibaseError } from '../../host-api/errors.js';
import { embeddedSchema } from '../../host-api/index.js';
import { METHOD_SYMBOL_FREQUENCIES } from '../../host-api/names/method.js';
import { PACKAGE_ROOT, packagePath } from '../fs/package-paths.js';
import { WebAssemblyJs, type WasmModuleObject } from '../wasm/admission/webassembly-api.js';
import { CompileCache, textDigest, type CompileReads } from './compile-cache.js';
import { withDebugInfo } from './debug-info.js';

// The one AssemblyScript compile of a service (docs/host-abi.md §10 gives the features), used by
// `make services` (scripts/build-services.js) for services-wasm/ and by `tsibase build` for a
// service author's project. The SDK is services-wasm/sdk of this package: services here import it
// relatively (`../sdk/index`); a project imports it as the package `tsibase/sdk`, which asc looks
// up in node_modules and this compile answers from the same folder.

const SDK_DIR = packagePath('services-wasm', 'sdk');
/** How a project imports the SDK: asc names its files `~lib/tsibase/sdk/...`. */
const SDK_PACKAGE = 'tsibase/sdk';

// MVP plus bulk memory, sign extension, non-trapping float-to-int and SIMD. asc enables the first
// three (and mutable-globals, which services never import or export) by default; everything else
// is switched off explicitly so a compiler upgrade cannot add it.
const ENABLED_FEATURES = ['simd'];
const DISABLED_FEATURES = [
  'threads', 'exception-handling', 'tail-calls', 'reference-types', 'multi-value', 'gc',
  'memory64', 'relaxed-simd', 'extended-const', 'stringref',
];

/** The asc arguments of every compile, but the base folder and the abort handler. */
const ASC_OPTIONS = [
  '--optimizeLevel', '3',
  // No size-driven shrinking: it gives up inlining, and services run hot (a query runs two of
  // them); the code is larger but an http query takes about a tenth less time.
  '--shrinkLevel', '0',
  // A bump allocator that never frees: the smallest deterministic runtime. Instances live for one
  // transaction, query or callback, and memory starts fresh in each.
  '--runtime', 'stub',
  '--enable', ENABLED_FEATURES.join(','),
  '--disable', DISABLED_FEATURES.join(','),
  '--transform', path.join(SDK_DIR, 'transform', 'index.mjs'),
  '--noColors',
  // The line table a trap is named by (debug-info.ts, docs/host-abi.md §10.2); the code is the same.
  '--sourceMap',
  // AS235: exported classes are not wasm exports. Services export classes for other services.
  '--disableWarning', '235',
];

/**
 * SDK sources generated from host-api, so the SDK and the node share one copy of the data
 * (path relative to the package root -> text).
 */
function generatedSources(): Record<string, string> {
  const rows = METHOD_SYMBOL_FREQUENCIES.map((row) => `  ${row.join(', ')},`).join('\n');
  return {
    'services-wasm/sdk/names/method-frequencies.ts':
      `// Generated from host-api/names/method.ts by the service build; not a file on disk.\n` +
      `/** Symbol frequencies given the previous symbol, row-major, 27 x 27. */\n` +
      `export const FREQUENCIES: StaticArray<u16> = [\n${rows}\n];\n`,
  };
}

/** Where the build's abort handler (services-wasm/sdk/abort-handler.ts) comes from, by how the project reaches the SDK. */
function abortHandler(projectDir: string): { entry: string; source?: string; use: string } {
  if (path.resolve(projectDir) === path.resolve(PACKAGE_ROOT)) {
    return { entry: 'services-wasm/sdk/abort-handler.ts', use: 'services-wasm/sdk/abort-handler/handleAbort' };
  }
  // An extra entry that only imports it, so it is parsed under its package name.
  return { entry: '.tsibase-abort-handler.ts', source: `import "${SDK_PACKAGE}/abort-handler";\n`, use: `~lib/${SDK_PACKAGE}/abort-handler/handleAbort` };
}

/** A file asc asks for, as a path on disk: `<any>/node_modules/tsibase/sdk/<file>` is the SDK's `<file>`. */
function diskPath(file: string): string {
  const m = /[\\/]node_modules[\\/]tsibase[\\/]sdk[\\/](.*)$/.exec(file);
  return m ? path.join(SDK_DIR, m[1]!) : file;
}

export interface CompiledService {
  readonly binary: Uint8Array;
  readonly module: WasmModuleObject;
  /** The schema the SDK transform embedded (null when the entry declares no service). */
  readonly schema: { service: string } & Record<string, unknown> | null;
}

/**
 * Compiles the AssemblyScript `entry` (relative to `projectDir`, by default this package's root)
 * into a service module. `overrides` maps paths relative to the package root (for the SDK) or to
 * the project to source text that replaces or adds files, for tests. With `cacheDir`, a module
 * compiled before from the same inputs is taken from there (compile-cache.ts).
 */
export async function compileService(entry: string, overrides: Record<string, string> = {}, projectDir: string = PACKAGE_ROOT, cacheDir?: string): Promise<CompiledService> {
  const abort = abortHandler(projectDir);
  const sources: Record<string, string> = { ...generatedSources(), ...(abort.source ? { [abort.entry]: abort.source } : {}), ...overrides };
  // A module kept in the cache needs no compiler loaded.
  const cache = cacheDir === undefined ? undefined : new CompileCache(cacheDir, toolchainDigest());
  const key = cache?.keyOf({ entry, projectDir: path.resolve(projectDir), sources });
  const kept = key === undefined ? null : cache!.get(key);
  if (kept) return compiledOf(kept);
  const asc = await loadCompiler();
  const reads: CompileReads = {};
  const rootRelative = (file: string) => path.relative(PACKAGE_ROOT, file).split(path.sep).join('/');
  const projectRelative = (file: string) => path.relative(projectDir, file).split(path.sep).join('/');
  let binary: Uint8Array | null = null;
  let sourceMap: string | null = null;
  let stderr = '';
  const result = await asc.main([
    entry, abort.entry, '--outFile', 'module.wasm', '--baseDir', projectDir, '--use', `abort=${abort.use}`, ...ASC_OPTIONS,
  ], {
    readFile: async (name: string, baseDir: string) => {
      const file = diskPath(path.resolve(baseDir, name));
      const given = sources[rootRelative(file)] ?? sources[projectRelative(file)];
      if (given !== undefined) return given;
      const text = await readFile(file, 'utf8').catch(() => null);
      reads[file] = textDigest(text);
      return text;
    },
    writeFile: (name: string, contents: string | Uint8Array) => {
      if (name === 'module.wasm') binary = contents as Uint8Array;
      else if (name === 'module.wasm.map') sourceMap = contents as string;
    },
    listFiles: () => [],
    stderr: { write: (text: string) => { stderr += text; } } as unknown as import('assemblyscript/asc').OutputStream,
  });
  if (result.error || binary === null) throw new TsibaseError('BUILD_FAILED', stderr.trim() || `${entry}: ${result.error?.message ?? 'no module written'}`);
  if (sourceMap === null) throw new TsibaseError('BUILD_FAILED', `${entry}: the compiler wrote no source map`);
  const code = withDebugInfo(binary, sourceMap);
  if (key !== undefined) cache!.put(key, reads, code);
  return compiledOf(code);
}

function compiledOf(code: Uint8Array): CompiledService {
  const schema = embeddedSchema(code);
  return { binary: code, module: new WebAssemblyJs.Module(code), schema: schema === null ? null : JSON.parse(schema) };
}

function noCompiler(): TsibaseError {
  // The SDK's transform loads it beside this package, so that is where it must be.
  return new TsibaseError('BUILD_NO_COMPILER', `compiling a service needs the package 'assemblyscript' where tsibase is (${PACKAGE_ROOT}): npm install assemblyscript there, or beside tsibase in your project`);
}

async function loadCompiler(): Promise<typeof import('assemblyscript/asc')> {
  try {
    return await import('assemblyscript/asc');
  } catch {
    throw noCompiler();
  }
}

let toolchain: string | undefined;

/**
 * What a compile depends on besides the files it reads: the compiler's version, the options, the
 * SDK transform, the host-api it computes names with (read by import, not by the compile) and
 * this folder's code that turns the compiler's output into the module kept.
 */
function toolchainDigest(): string {
  if (toolchain !== undefined) return toolchain;
  let ascPackage: string;
  try {
    ascPackage = fileURLToPath(import.meta.resolve('assemblyscript/package.json'));
  } catch {
    throw noCompiler();
  }
  // dist/runtime/build: what the compile's output goes through before it is kept (the line table).
  const files = [...filesUnder(path.join(SDK_DIR, 'transform')), ...filesUnder(packagePath('dist', 'host-api')), ...filesUnder(packagePath('dist', 'runtime', 'build'))];
  const digests = files.map((file) => `${path.relative(PACKAGE_ROOT, file)} ${textDigest(readFileSync(file, 'utf8'))}`);
  toolchain = textDigest([readFileSync(ascPackage, 'utf8'), ASC_OPTIONS.join(' '), ...digests].join('\n'))!;
  return toolchain;
}

/** Every file under `dir`, in a fixed order. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** Writes a compiled service to `wasmFile` and its schema beside it (`<name>.schema.json`, what `tsibase deploy` stores). */
export function writeCompiledService(wasmFile: string, compiled: CompiledService): void {
  if (!WebAssemblyJs.Module.exports(compiled.module).some((e) => e.name === 'called')) {
    throw new TsibaseError('BUILD_NO_SERVICE', `${wasmFile}: the entry declares no @service class (the module exports no 'called')`);
  }
  mkdirSync(path.dirname(wasmFile), { recursive: true });
  writeFileSync(wasmFile, compiled.binary);
  writeFileSync(wasmFile.replace(/\.wasm$/, '') + '.schema.json', JSON.stringify(compiled.schema, null, 2) + '\n');
}
