#!/usr/bin/env node
// `make services`: compiles every service folder services-wasm/<name>/ (entry index.ts; `sdk` is
// the SDK, not a service) in this one process, into build/services/<name>.wasm, and writes the
// service schema the SDK transform embedded to build/services/<name>.schema.json as well.
// `node scripts/build-services.js [name ...]` builds only the named services. The compile is the
// one `tsibase build` runs (runtime/build/compile-service.ts), so it needs `make build` first; a
// service whose sources did not change since its last compile is taken from dist/.compile-cache.

import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVICES_DIR = path.join(ROOT, 'services-wasm');
const OUT_DIR = path.join(ROOT, 'build', 'services');
/** Compiled modules kept by what their compile read, so a build recompiles only what changed (runtime/build/compile-cache.ts); the tests share it. */
export const COMPILE_CACHE = path.join(ROOT, 'dist', '.compile-cache');
const SDK = 'sdk';

/** compileService(entry relative to the repository root, overrides): what tests compile SDK programs with as well. */
export const { compileService, writeCompiledService } = await import(pathToFileURL(path.join(ROOT, 'dist', 'runtime', 'build', 'compile-service.js')).href);

/** Names of the service folders: every folder of services-wasm with an index.ts, except the SDK. */
export function serviceNames() {
  return readdirSync(SERVICES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== SDK && existsSync(path.join(SERVICES_DIR, d.name, 'index.ts')))
    .map((d) => d.name)
    .sort();
}

async function main(requested) {
  const names = requested.length ? requested : serviceNames();
  console.log(`compiling ${names.length} service${names.length === 1 ? '' : 's'} with AssemblyScript (optimizing) into build/services`);
  for (const name of names) {
    const started = performance.now();
    const compiled = await compileService(`services-wasm/${name}/index.ts`, {}, undefined, COMPILE_CACHE);
    writeCompiledService(path.join(OUT_DIR, `${name}.wasm`), compiled);
    console.log(`build/services/${name}.wasm  ${compiled.binary.length} bytes  (${Math.round(performance.now() - started)} ms)`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err.message);
    process.exitCode = 1;
  });
}
