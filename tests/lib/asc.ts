// The AssemblyScript compiler API, loaded by a computed specifier: its type declarations
// declare a global `console` for AssemblyScript that would replace Node's in this project.
import { readFileSync } from 'node:fs';

interface AscCompileResult {
  error: Error | null;
  binary: Uint8Array | null;
  stderr: { toString(): string };
}

interface AscApi {
  compileString(sources: string | Record<string, string>, options: Record<string, unknown>): Promise<AscCompileResult>;
}

const SPECIFIER = 'assemblyscript/asc';

export async function loadAsc(): Promise<AscApi> {
  const module = (await import(SPECIFIER)) as { default: AscApi };
  return module.default;
}

/**
 * Compiles a stand-alone AssemblyScript program (raw host imports, no SDK) with the stub runtime
 * and no abort import; `what` names it in the error.
 */
export async function compileStandalone(path: string, what: string): Promise<Uint8Array> {
  const r = await (await loadAsc()).compileString(readFileSync(path, 'utf8'), { optimizeLevel: 3, shrinkLevel: 1, runtime: 'stub', use: ['abort='] });
  if (r.error || !r.binary) throw new Error(`${what} does not compile: ${r.stderr.toString()}`);
  return r.binary;
}
