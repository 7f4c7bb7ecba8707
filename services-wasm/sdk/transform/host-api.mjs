// The names and schema built-ins of the TypeScript host-api, compiled by `make build` into
// dist/: method and account numbers are computed at compile time with the node's own code.

import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HOST_API = fileURLToPath(new URL('../../../dist/host-api/index.js', import.meta.url));
if (!existsSync(HOST_API)) throw new Error(`${HOST_API} is missing: run \`make build\` before compiling services`);

const hostApi = await import(pathToFileURL(HOST_API).href);

export const { BUILTIN_TYPES, accountNumberFromName, methodNumberFromName } = hostApi;
