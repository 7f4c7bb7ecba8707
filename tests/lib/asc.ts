// The AssemblyScript compiler API, loaded by a computed specifier: its type declarations
// declare a global `console` for AssemblyScript that would replace Node's in this project.

export interface AscCompileResult {
  error: Error | null;
  binary: Uint8Array | null;
  stderr: { toString(): string };
}

export interface AscApi {
  compileString(sources: string | Record<string, string>, options: Record<string, unknown>): Promise<AscCompileResult>;
}

const SPECIFIER = 'assemblyscript/asc';

export async function loadAsc(): Promise<AscApi> {
  const module = (await import(SPECIFIER)) as { default: AscApi };
  return module.default;
}
