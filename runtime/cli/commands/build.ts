import { join } from 'node:path';
import { compileService, writeCompiledService } from '../../build/compile-service.js';
import { option, parseArgs, UsageError } from '../args.js';

export const BUILD_USAGE = `usage: tsibase build [entry.ts] [options]

Compiles an AssemblyScript service (default entry service/index.ts) with the SDK ('tsibase/sdk')
into build/<service>.wasm and its schema build/<service>.schema.json, which 'tsibase deploy'
stores. The compile is the one the system services are built with.

options:
  -o, --out <file.wasm>   where to write the module (default build/<service>.wasm)`;

export async function buildCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [{ name: 'out', short: 'o' }]);
  const [entry = join('service', 'index.ts'), extra] = args.positional;
  if (extra) throw new UsageError(`unexpected argument '${extra}'\n\n${BUILD_USAGE}`);
  const started = performance.now();
  console.log(`compiling ${entry} with AssemblyScript (optimizing; this takes a few seconds)`);
  const compiled = await compileService(entry, {}, process.cwd());
  const out = option(args, 'out') ?? join('build', `${compiled.schema?.service ?? 'service'}.wasm`);
  writeCompiledService(out, compiled);
  console.log(`${out}  ${compiled.binary.length} bytes, schema beside it  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return 0;
}
