#!/usr/bin/env node
// `make services`: compiles every service folder services-wasm/<name>/ (entry index.ts; `sdk` is
// the SDK, not a service) with the asc API, in this one process, into build/services/<name>.wasm,
// and writes the service schema the SDK transform embedded (custom section `service-schema`) to
// build/services/<name>.schema.json as well. `node scripts/build-services.js [name ...]` builds
// only the named services. Needs `make build` first (the transform uses dist/host-api).

import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import asc from 'assemblyscript/asc';
import { SCHEMA_SECTION } from '../services-wasm/sdk/transform/index.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVICES_DIR = path.join(ROOT, 'services-wasm');
const OUT_DIR = path.join(ROOT, 'build', 'services');
const SDK = 'sdk';
// An extra entry of every build, so the abort handler exists even where the SDK is not imported.
const ABORT_HANDLER = `services-wasm/${SDK}/abort-handler.ts`;

// docs/host-abi.md §10: MVP plus bulk memory, sign extension, non-trapping float-to-int and SIMD.
// asc enables the first three (and mutable-globals, which services never import or export) by
// default; everything else is switched off explicitly so a compiler upgrade cannot add it.
const ENABLED_FEATURES = ['simd'];
const DISABLED_FEATURES = [
  'threads', 'exception-handling', 'tail-calls', 'reference-types', 'multi-value', 'gc',
  'memory64', 'relaxed-simd', 'extended-const', 'stringref',
];

/** The asc arguments of every compile (services, and the SDK programs tests compile through compileService). */
const ASC_OPTIONS = [
  '--baseDir', ROOT,
  '--optimizeLevel', '3',
  // No size-driven shrinking: it gives up inlining, and services run hot (a query runs two of
  // them); the code is larger but an http query takes about a tenth less time.
  '--shrinkLevel', '0',
  // A bump allocator that never frees: the smallest deterministic runtime. Instances live for one
  // transaction, query or callback, and memory starts fresh in each.
  '--runtime', 'stub',
  '--use', `abort=services-wasm/${SDK}/abort-handler/handleAbort`,
  '--enable', ENABLED_FEATURES.join(','),
  '--disable', DISABLED_FEATURES.join(','),
  '--transform', path.join(SERVICES_DIR, SDK, 'transform', 'index.mjs'),
  '--noColors',
  // AS235: exported classes are not wasm exports. Services export classes for other services.
  '--disableWarning', '235',
];

let generated;

/**
 * SDK sources generated from host-api when a service is compiled, so the SDK and the node share
 * one copy of the data (root-relative path -> text); generated once per process.
 */
function generatedSources() {
  generated ??= generateSources();
  return generated;
}

async function generateSources() {
  const { METHOD_SYMBOL_FREQUENCIES } = await import(pathToFileURL(path.join(ROOT, 'dist', 'host-api', 'names', 'method.js')).href);
  const rows = METHOD_SYMBOL_FREQUENCIES.map((row) => `  ${row.join(', ')},`).join('\n');
  return {
    [`services-wasm/${SDK}/names/method-frequencies.ts`]:
      `// Generated from host-api/names/method.ts by scripts/build-services.js; not a file on disk.\n` +
      `/** Symbol frequencies given the previous symbol, row-major, 27 x 27. */\n` +
      `export const FREQUENCIES: StaticArray<u16> = [\n${rows}\n];\n`,
  };
}

/**
 * Compiles one AssemblyScript entry file (path relative to the repository root). `overrides` maps
 * root-relative paths to source text that replaces (or adds) files, for tests.
 * Returns the module bytes and its schema (null when the entry declares no service).
 */
export async function compileService(entry, overrides = {}) {
  const sources = { ...(await generatedSources()), ...overrides };
  let binary = null;
  let stderr = '';
  const result = await asc.main([entry, ABORT_HANDLER, '--outFile', 'module.wasm', ...ASC_OPTIONS], {
    readFile: async (name, baseDir) => {
      const relative = path.relative(ROOT, path.resolve(baseDir, name)).split(path.sep).join('/');
      if (Object.hasOwn(sources, relative)) return sources[relative];
      return readFile(path.resolve(baseDir, name), 'utf8').catch(() => null);
    },
    writeFile: (name, contents) => {
      if (name === 'module.wasm') binary = contents;
    },
    listFiles: () => [],
    stderr: { write: (text) => { stderr += text; } },
  });
  if (result.error) throw new Error(stderr.trim() || `${entry}: ${result.error.message}`);
  const module = new WebAssembly.Module(binary);
  const [section] = WebAssembly.Module.customSections(module, SCHEMA_SECTION);
  return { binary, module, schema: section ? JSON.parse(new TextDecoder().decode(section)) : null };
}

/** Names of the service folders: every folder of services-wasm with an index.ts, except the SDK. */
export function serviceNames() {
  return readdirSync(SERVICES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== SDK && existsSync(path.join(SERVICES_DIR, d.name, 'index.ts')))
    .map((d) => d.name)
    .sort();
}

async function buildService(name) {
  const { binary, module, schema } = await compileService(`services-wasm/${name}/index.ts`);
  if (!WebAssembly.Module.exports(module).some((e) => e.name === 'called')) {
    throw new Error(`services-wasm/${name}/index.ts declares no @service class (the module exports no 'called')`);
  }
  writeFileSync(path.join(OUT_DIR, `${name}.wasm`), binary);
  writeFileSync(path.join(OUT_DIR, `${name}.schema.json`), JSON.stringify(schema, null, 2) + '\n');
  return binary.length;
}

async function main(requested) {
  const names = requested.length ? requested : serviceNames();
  mkdirSync(OUT_DIR, { recursive: true });
  for (const name of names) {
    const started = performance.now();
    const size = await buildService(name);
    console.log(`build/services/${name}.wasm  ${size} bytes  (${Math.round(performance.now() - started)} ms)`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err.message);
    process.exitCode = 1;
  });
}
