#!/usr/bin/env node
// Builds the default boot bundle (docs/bundle.md) from services-wasm/bundle.json and the
// services `make services` compiled into build/services: build/default.bundle.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { ROOT } from './build-services.js';

const CONTENT_TYPES = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.wasm': 'application/wasm', '.txt': 'text/plain',
};

/** Every file under `dir` as a site file: path relative to `dir`, content type by extension. */
export function filesUnder(dir) {
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((file) => statSync(file).isFile())
    .map((file) => ({
      path: `/${relative(dir, file).split('\\').join('/')}`,
      contentType: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      content: readFileSync(file),
    }));
}

export async function buildBundle(manifestPath = join(ROOT, 'services-wasm', 'bundle.json'), out = join(ROOT, 'build', 'default.bundle')) {
  const { packBundle } = await import(join(ROOT, 'dist', 'host-api', 'index.js'));
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const services = manifest.services.map((entry) => {
    const wasm = join(ROOT, 'build', 'services', `${entry.account}.wasm`);
    if (!existsSync(wasm)) throw new Error(`bundle: ${wasm} is missing (run make services)`);
    return {
      account: entry.account,
      flags: BigInt(entry.flags ?? 0),
      code: readFileSync(wasm),
      genesis: entry.genesis === true,
      server: entry.server ?? null,
      initActions: entry.initActions ?? [],
      files: entry.files ? filesUnder(join(ROOT, entry.files)) : [],
    };
  });
  const bytes = packBundle({ services });
  writeFileSync(out, bytes);
  return { out, bytes: bytes.length, services: services.length };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { out, bytes, services } = await buildBundle();
  console.log(`${relative(process.cwd(), out)}  ${services} services, ${bytes} bytes`);
}
