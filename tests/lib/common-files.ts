// The files common-api serves under /common/ (its own files and the package modules they import,
// as services-wasm/bundle.json lists them), written to a temp folder once per process, so node
// imports common-lib.js and key-conversions.mjs with the modules a browser gets beside them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bundleScript } from './test-bundle.js';

let served: Promise<string> | undefined;

async function writeServedFiles(): Promise<string> {
  const services = await (await bundleScript()).bundleServices(() => new Uint8Array());
  const commonApi = services.find((service) => service.account === 'common-api');
  if (!commonApi) throw new Error('services-wasm/bundle.json has no common-api');
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-common-files-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  for (const file of commonApi.files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
  }
  return join(dir, 'common');
}

/** The folder that holds the served /common/ files. */
export function servedCommonFiles(): Promise<string> {
  served ??= writeServedFiles();
  return served;
}
