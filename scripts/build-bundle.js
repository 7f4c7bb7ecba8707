#!/usr/bin/env node
// Builds the default boot bundle (docs/bundle.md) from services-wasm/bundle.json and the
// services `make services` compiled into build/services: build/default.bundle.
import { existsSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST = join(ROOT, 'services-wasm', 'bundle.json');

// The host-api the build compiled (make services runs after make build).
const { contentTypeOf, packBundle } = await import(join(ROOT, 'dist', 'host-api', 'index.js'));

/** Every file under `dir` as a site file: path relative to `dir`, content type by extension. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((file) => statSync(file).isFile())
    .map((file) => ({
      path: `/${relative(dir, file).split('\\').join('/')}`,
      contentType: contentTypeOf(file),
      content: readFileSync(file),
    }));
}

/**
 * Files of installed npm packages as site files: `{sitePath: "package/file"}`, read from
 * node_modules (the versions package.json pins), e.g. the React that psibase pages import.
 */
function packageFiles(map) {
  return Object.entries(map).map(([path, file]) => {
    const source = join(ROOT, 'node_modules', file);
    if (!existsSync(source)) throw new Error(`bundle: ${source} is missing (run make install)`);
    return { path, contentType: contentTypeOf(source), content: readFileSync(source) };
  });
}

// A static import or re-export at the start of a line, as tsc emits them (the examples in
// packages' doc comments are indented): the text before the specifier, its quote, the specifier.
const IMPORT = /^((?:import|export)\s(?:[^'";]*?\sfrom\s*)?)(['"])([^'"]+)\2/gm;

const posixPath = (path) => path.split(sep).join('/');

/**
 * ES modules of npm packages as site files under `folder` (e.g. "/common/"), in their node_modules
 * layout (`/common/@noble/curves/nist.js`): the `entries` ("@noble/curves/nist.js", ...) and every
 * module they import. A browser resolves the relative imports between them as they are; imports of
 * another package by name, which it cannot resolve, are rewritten to relative paths.
 */
function packageModules(folder, entries) {
  const nodeModules = realpathSync(join(ROOT, 'node_modules'));
  const resolveName = (name) => fileURLToPath(import.meta.resolve(name));
  const sources = new Map();
  const pending = entries.map(resolveName);
  while (pending.length > 0) {
    const file = pending.pop();
    if (sources.has(file)) continue;
    sources.set(file, readFileSync(file, 'utf8').replace(IMPORT, (statement, head, quote, specifier) => {
      if (specifier.startsWith('.')) {
        pending.push(join(dirname(file), specifier));
        return statement;
      }
      const target = resolveName(specifier);
      pending.push(target);
      const path = posixPath(relative(dirname(file), target));
      return `${head}${quote}${path.startsWith('.') ? path : `./${path}`}${quote}`;
    }));
  }
  return [...sources].map(([file, source]) => ({
    path: folder + posixPath(relative(nodeModules, file)),
    contentType: contentTypeOf(file),
    content: Buffer.from(source),
  }));
}

/** The code `make services` built for `account` (build/services/<account>.wasm). */
export function builtCode(account) {
  const wasm = join(ROOT, 'build', 'services', `${account}.wasm`);
  if (!existsSync(wasm)) throw new Error(`bundle: ${wasm} is missing (run make services)`);
  return readFileSync(wasm);
}

/** The services the manifest lists, in its order, with their code from `codeOf(account)`. */
export async function bundleServices(codeOf, manifestPath = MANIFEST) {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  return Promise.all(manifest.services.map(async (entry) => ({
    account: entry.account,
    flags: BigInt(entry.flags ?? 0),
    code: await codeOf(entry.account),
    genesis: entry.genesis === true,
    server: entry.server ?? null,
    initActions: entry.initActions ?? [],
    files: [
      ...(entry.files ? filesUnder(join(ROOT, entry.files)) : []),
      ...packageFiles(entry.packageFiles ?? {}),
      ...Object.entries(entry.packageModules ?? {}).flatMap(([folder, entries]) => packageModules(folder, entries)),
    ],
  })));
}

async function buildBundle(manifestPath = MANIFEST, out = join(ROOT, 'build', 'default.bundle')) {
  const services = await bundleServices(builtCode, manifestPath);
  const bytes = packBundle({ services });
  writeFileSync(out, bytes);
  return { out, bytes: bytes.length, services: services.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { out, bytes, services } = await buildBundle();
  console.log(`${relative(process.cwd(), out)}  ${services} services, ${bytes} bytes`);
}
