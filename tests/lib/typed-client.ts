// A typed client as a service author's project holds it: `tsibase codegen` output in a temporary
// TypeScript project whose `tsibase` is this package (node_modules/tsibase links to it), compiled
// with tsc --strict, so the project's compiled files import the very modules the tests do.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { clientSource } from '../../runtime/codegen/client-source.js';
import { readClientSchema } from '../../runtime/codegen/schema-input.js';
import { ROOT } from '../unit/services-wasm/program.js';

const run = promisify(execFile);
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022'], types: ['node'],
    strict: true, noUnusedLocals: true, rootDir: '.', outDir: 'dist', skipLibCheck: true,
  },
  include: ['*.ts'],
};

export interface ClientProject {
  readonly dir: string;
  /** Writes `<name>.ts` into the project. */
  write(name: string, source: string): void;
  /** Writes `<file>.ts`: the client codegen makes of `schema`. */
  codegen(file: string, schema: unknown): string;
  /** Runs tsc on the project: its exit status and output. */
  compile(): Promise<{ status: number; output: string }>;
  /** The compiled module `<name>.js`. */
  load<T>(name: string): Promise<T>;
  remove(): void;
}

export function clientProject(): ClientProject {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-client-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'tsibase'), 'dir');
  symlinkSync(join(ROOT, 'node_modules', '@types'), join(dir, 'node_modules', '@types'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'client-project', private: true, type: 'module' }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  const write = (name: string, source: string) => writeFileSync(join(dir, `${name}.ts`), source);
  return {
    dir,
    write,
    codegen(file, schema) {
      const source = clientSource(readClientSchema(schema, `${file}.schema.json`), `${file}.schema.json`);
      write(file, source);
      return source;
    },
    async compile() {
      try {
        const { stdout, stderr } = await run(process.execPath, [TSC, '-p', dir], { cwd: dir });
        return { status: 0, output: stdout + stderr };
      } catch (err) {
        const e = err as { code?: number; stdout?: string; stderr?: string };
        return { status: e.code ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
      }
    },
    load: (name) => import(pathToFileURL(join(dir, 'dist', `${name}.js`)).href),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
