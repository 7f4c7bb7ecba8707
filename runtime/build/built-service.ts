import { existsSync, readFileSync } from 'node:fs';
import { embeddedSchema } from '../../host-api/boot/service-schema.js';

// A service as a build leaves it: `name.wasm`, and `name.schema.json` beside it (what make
// services and tsibase build write). `tsibase deploy` and TestChain read it alike.

/** The schema beside the module (`name.schema.json` for `name.wasm`), else the one embedded in `code`. */
export function builtServiceSchema(file: string, code: Uint8Array): string | null {
  const beside = file.replace(/\.wasm$/, '') + '.schema.json';
  return existsSync(beside) ? readFileSync(beside, 'utf8') : embeddedSchema(code);
}

/** The module in `file` and its schema. */
export function readBuiltService(file: string): { code: Uint8Array; schema: string | null } {
  const code = new Uint8Array(readFileSync(file));
  return { code, schema: builtServiceSchema(file, code) };
}
