// The TypeScript files under some folders and the relative imports between them, as the import
// checks (check-import-cycles.js, check-layer-order.js) read them: `import`/`export … from`,
// type-only ones included. A specifier ending `.js` names the `.ts` file beside it (the node's
// TypeScript); one without an extension names `x.ts` or `x/index.ts` (AssemblyScript's, in
// services-wasm/).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const IMPORT = /^\s*(?:import|export)\b[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The `.ts` files under `dir` (declaration files left out: they import nothing that runs). */
export function tsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier in `file` names, or undefined when it names no `.ts` file. */
function resolveSpecifier(file, specifier) {
  const path = resolve(dirname(file), specifier);
  if (path.endsWith('.js')) return path.replace(/\.js$/, '.ts');
  if (path.endsWith('.ts')) return path;
  return [`${path}.ts`, join(path, 'index.ts')].find((candidate) => existsSync(candidate));
}

/** A file's relative imports that name a `.ts` file, as `{ specifier, target }` (absolute paths). */
export function relativeImports(file) {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)]
    .map((m) => ({ specifier: m[1], target: resolveSpecifier(file, m[1]) }))
    .filter(({ target }) => target !== undefined);
}

/** Each file's imports of files among `files` (absolute paths). */
export function importsAmong(files) {
  const set = new Set(files);
  return new Map([...set].map((file) => [file, relativeImports(file).filter(({ target }) => set.has(target))]));
}
