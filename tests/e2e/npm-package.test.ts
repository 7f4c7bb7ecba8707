// The npm package as a service author gets it: `npm pack` of this repository (its prepack runs
// make), installed with its dependencies from the registry into an empty folder; `tsibase dev`
// boots a chain from the bundle it ships, `tsibase/testing` loads, and a project made by
// `tsibase new-service` builds (its typed client too), passes its own tests and deploys to that chain, whose subdomain
// then serves it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { httpRequest, serviceUrl } from '../../runtime/cli/client.js';

const run = promisify(execFile);
const ROOT = process.cwd();
const OWN = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; peerDependencies: Record<string, string>; devDependencies: Record<string, string> };
/** Registry dependencies come from npm's cache when it has them. */
const NPM_INSTALL = ['install', '--no-audit', '--no-fund', '--prefer-offline'];

interface Ctx { dir: string; tarball: string; app: string; dev?: ChildProcess; devOutput: string; api: string }
const test = suite<Ctx>('the npm package');

/** Runs `command args` in `cwd`; its output, or a failure that shows it. */
async function sh(cwd: string, command: string, args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, FORCE_COLOR: '0' } });
    return stdout + stderr;
  } catch (err) {
    const e = err as { message: string; stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} in ${cwd} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

/** Starts `tsibase dev` of the installed package on a free port; resolves with its API once it says it runs. */
function startDev(ctx: Ctx): Promise<string> {
  const child = spawn(process.execPath, [join(ctx.app, 'node_modules', 'tsibase', 'bin', 'tsibase.js'), 'dev', '-l', '127.0.0.1:0', '--data', join(ctx.dir, 'dev-data')], {
    cwd: ctx.app, stdio: ['ignore', 'pipe', 'pipe'],
  });
  ctx.dev = child;
  ctx.devOutput = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      ctx.devOutput += chunk.toString();
      const m = /^ {2}http:\/\/tsibase\.localhost:(\d+)\//m.exec(ctx.devOutput);
      if (m) resolve(`http://tsibase.localhost:${m[1]}`);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`tsibase dev exited (${code}):\n${ctx.devOutput}`)));
  });
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-package-'));
  await sh(ROOT, 'npm', ['pack', '--pack-destination', ctx.dir]);
  ctx.tarball = join(ctx.dir, `tsibase-${OWN.version}.tgz`);
  ctx.app = join(ctx.dir, 'app');
  mkdirSync(ctx.app);
  writeFileSync(join(ctx.app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  // As the README's `npm install tsibase assemblyscript`: the compiler beside the package.
  await sh(ctx.app, 'npm', [...NPM_INSTALL, ctx.tarball, `assemblyscript@${OWN.peerDependencies.assemblyscript}`]);
});

test.after(async (ctx) => {
  if (ctx.dev && ctx.dev.exitCode === null) {
    const exited = new Promise((done) => ctx.dev!.once('exit', done));
    ctx.dev.kill('SIGTERM');
    await exited;
  }
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('the tarball holds the node, the bundle, the SDK and the templates, and no tests or benchmarks', async (ctx) => {
  const files = (await sh(ctx.dir, 'tar', ['tzf', ctx.tarball])).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
  for (const file of ['bin/tsibase.js', 'dist/runtime/cli/main.js', 'dist/runtime/testing/index.d.ts', 'build/default.bundle',
    'build/services/example.wasm', 'build/services/example.schema.json', 'services-wasm/sdk/index.ts',
    'services-wasm/sdk/transform/index.mjs', 'admin/index.html', 'templates/service/service/index.ts']) {
    assert.ok(files.includes(file), `${file} is in the package`);
  }
  assert.equal(files.filter((f) => /^dist\/(tests|bench)\//.test(f) || f.endsWith('.map')), []);
});

test('tsibase dev boots the shipped bundle and serves the chain and the example service', async (ctx) => {
  ctx.api = await startDev(ctx);
  assert.match(ctx.devOutput, 'a development chain');
  assert.match(ctx.devOutput, /boot: \d+ of \d+ transactions applied/);
  const example = await httpRequest(serviceUrl(ctx.api, 'example', '/action_templates'));
  assert.is(example.status, 200);
  assert.ok('increment' in (example.json() as object));
});

test('tsibase/testing loads from the installed package, typed', async (ctx) => {
  const script = "import { TestChain, ServiceCodec } from 'tsibase/testing'; const c = TestChain.open(); await c.close(); console.log(typeof ServiceCodec);";
  assert.match(await sh(ctx.app, process.execPath, ['--input-type=module', '-e', script]), 'function');
  const types = readFileSync(join(ctx.app, 'node_modules', 'tsibase', 'dist', 'runtime', 'testing', 'index.d.ts'), 'utf8');
  assert.match(types, 'TestChain');
});

test('a new service project builds, passes its tests, deploys to the dev chain and serves its subdomain', async (ctx) => {
  const tsibase = join(ctx.app, 'node_modules', '.bin', 'tsibase');
  await sh(ctx.app, tsibase, ['new-service', 'notes']);
  const project = join(ctx.app, 'notes');
  const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  // The package new-service ran from, which need not be on the registry; the compiler from the registry.
  assert.equal(manifest.devDependencies, {
    '@types/node': OWN.devDependencies['@types/node'], assemblyscript: OWN.peerDependencies.assemblyscript,
    tsibase: 'file:../node_modules/tsibase', typescript: OWN.devDependencies.typescript,
  });
  await sh(project, 'npm', NPM_INSTALL);
  assert.match(await sh(project, 'npm', ['run', 'build']), /build\/notes\.wasm +\d+ bytes/);
  assert.equal(readdirSync(join(project, 'build')).sort(), ['notes-client.ts', 'notes.schema.json', 'notes.wasm']);
  // The project's tests boot a chain (TestChain.boot) from the package's bundle and all pass.
  const tested = await sh(project, 'npm', ['test']);
  assert.match(tested, /# pass [1-9]/);
  assert.match(tested, /# fail 0/);
  const deployed = await sh(project, 'npm', ['run', 'deploy', '--', '-a', ctx.api]);
  assert.match(deployed, /deployed notes in transaction [0-9A-F]{64}/);
  const page = await httpRequest(serviceUrl(ctx.api, 'notes', '/'));
  assert.is(page.status, 200);
  assert.match(page.text(), '/common/SimpleUI.mjs');
  const packed = await httpRequest(serviceUrl(ctx.api, 'notes', '/pack_action/setNote'), {
    method: 'POST', body: new TextEncoder().encode(JSON.stringify({ text: 'hi' })), headers: { 'content-type': 'application/json' },
  });
  assert.is(packed.status, 200);
  const graphql = await httpRequest(serviceUrl(ctx.api, 'notes', '/graphql'));
  assert.match(graphql.text(), 'notes');
});

test.run();
