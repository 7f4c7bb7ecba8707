import { cpSync, existsSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { isValidAccountName } from '../../../host-api/index.js';
import { PACKAGE_ROOT, packagePath } from '../../fs/package-paths.js';
import { parseArgs, UsageError } from '../args.js';

export const NEW_SERVICE_USAGE = `usage: tsibase new-service <name>

Starts a service project in the folder <name>: a service (an AssemblyScript file using the SDK
'tsibase/sdk') with a table, actions, an event, a GraphQL query and the simple UI; a TypeScript
test that runs it on a chain booted in the test's process (TestChain.boot, 'tsibase/testing')
through the typed client 'tsibase codegen' writes from its schema; and a README. <name> is the
service's account name.
Then, in the folder: npm install, npm test, and with 'tsibase dev' running, npm run deploy.`;

/** This package's package.json: its version, the compiler version it builds with, and the TypeScript it is typed with. */
function ownPackage(): { version: string; peerDependencies: Record<string, string>; devDependencies: Record<string, string> } {
  return JSON.parse(readFileSync(packagePath('package.json'), 'utf8'));
}

/** `my-svc` -> `MySvc`: the service's class name. */
function className(name: string): string {
  return name.split('-').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map((f) => join(dir, String(f))).filter((f) => statSync(f).isFile());
}

/**
 * The project's tsibase dependency: the package this command runs from, as a `file:` path
 * relative to the project (`file:../node_modules/tsibase` after `npm install tsibase` beside it),
 * so `npm install` in the project works whether or not this version is on the registry, and
 * the project builds with the very node and SDK that wrote it.
 */
function ownDependency(dir: string): string {
  const path = relative(dir, PACKAGE_ROOT).split(sep).join('/') || '.';
  return `file:${path}`;
}

function projectPackage(name: string, dir: string): string {
  const own = ownPackage();
  return JSON.stringify({
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      // The service, its schema, and its typed client from the schema (build/<name>-client.ts).
      build: `tsibase build && tsibase codegen build/${name}.schema.json`,
      test: 'npm run build && tsc -p . && node --test dist/test/',
      deploy: `tsibase deploy --create-insecure-account --register-server ${name} build/${name}.wasm`,
    },
    devDependencies: {
      '@types/node': own.devDependencies['@types/node'],
      assemblyscript: own.peerDependencies.assemblyscript,
      tsibase: ownDependency(dir),
      typescript: own.devDependencies.typescript,
    },
  }, null, 2) + '\n';
}

export function newServiceCommand(argv: string[]): number {
  const args = parseArgs(argv, []);
  const [name, extra] = args.positional;
  if (!name || extra) throw new UsageError(`${extra ? `unexpected argument '${extra}'` : 'missing <name>'}\n\n${NEW_SERVICE_USAGE}`);
  // Letters first: the name is also an AssemblyScript class name.
  if (!isValidAccountName(name) || !/^[a-z]/.test(name)) {
    throw new UsageError(`'${name}' is not a service account name (lower-case letters, digits and '-', starting with a letter, at most 18 characters)`);
  }
  const dir = resolve(name);
  if (existsSync(dir)) throw new UsageError(`${dir} exists already`);
  cpSync(packagePath('templates', 'service'), dir, { recursive: true });
  for (const file of filesUnder(dir)) {
    const text = readFileSync(file, 'utf8').replaceAll('__NAME__', name).replaceAll('__CLASS__', className(name));
    writeFileSync(file, text);
    if (file.includes('__NAME__')) renameSync(file, file.replaceAll('__NAME__', name));
  }
  // npm leaves .gitignore files out of packages, so the template's is called gitignore.
  renameSync(join(dir, 'gitignore'), join(dir, '.gitignore'));
  writeFileSync(join(dir, 'package.json'), projectPackage(name, dir));
  console.log(`created ${name}/: service/index.ts, test/${name}.test.ts, tsconfig.json, README.md`);
  console.log(`its package.json takes tsibase from ${PACKAGE_ROOT} (${ownDependency(dir)}); for the registry's, write "tsibase": "^${ownPackage().version}"`);
  console.log(`next: cd ${name} && npm install && npm test`);
  return 0;
}
