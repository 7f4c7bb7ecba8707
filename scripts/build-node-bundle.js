#!/usr/bin/env node
// Bundles the compiled CLI (dist/runtime/cli/main.js and every module it imports) into one file,
// dist/runtime/cli/main.bundle.js, that a node's process loads instead of ~385 modules, and each
// worker thread's script beside itself as <name>.bundle.js, which the CLI's bundle starts instead
// (docs/design.md, decision 11). `node scripts/build-node-bundle.js`, after tsc (make all).
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const CLI = join(DIST, 'runtime', 'cli', 'main.js');
/** The scripts the node starts worker threads on (`new Worker(new URL('./<script>', import.meta.url))`). */
const WORKER_SCRIPTS = ['runtime/chain/query-thread.js', 'runtime/crypto/signature-worker-thread.js', 'runtime/snapshot/state-checksum-thread.js']
  .map((path) => join(DIST, path));

/**
 * Packages loaded as they are: native addons (lmdb, fs-ext, pkcs11js, unix-dgram), the optional
 * compiler peer, and undici, which only the CLI's client commands load (1.2 MB a node never runs).
 */
const EXTERNAL = ['lmdb', 'fs-ext', 'pkcs11js', 'unix-dgram', 'assemblyscript', 'assemblyscript/*', 'undici'];

const bundleOf = (script) => script.replace(/\.js$/, '.bundle.js');

/**
 * Each module keeps its own import.meta.url, so the files it finds beside itself (the admission
 * sources hashed for the admitted-code cache, the package root) are still found where tsc put
 * them, whichever bundle it is in; a worker thread's script is its bundle.
 */
function ownModuleUrl(outfile) {
  return {
    name: 'own-module-url',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!args.path.startsWith(DIST) || !source.includes('import.meta.url')) return undefined;
        const fromBundle = (path) => JSON.stringify(relative(dirname(outfile), path).split('\\').join('/'));
        const contents = source
          .replace(/new URL\('(\.\/[^']+\.js)', import\.meta\.url\)/g, (call, script) =>
            (WORKER_SCRIPTS.includes(join(dirname(args.path), script)) ? `new URL('${bundleOf(script)}', import.meta.url)` : call))
          .replaceAll('import.meta.url', `new URL(${fromBundle(args.path)}, import.meta.url).href`);
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

function bundle(entry) {
  const outfile = bundleOf(entry);
  return build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    plugins: [ownModuleUrl(outfile)],
    // Chained through tsc's maps: with --enable-source-maps a stack trace names the .ts files.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  });
}

// The CLI's bundle last: runtime/cli/cli-module.ts runs it only when it is newer than tsc's
// build, and then the workers' bundles it starts are of that build too.
await Promise.all(WORKER_SCRIPTS.map(bundle));
await bundle(CLI);
