// What `make services` produces: every service folder found (the SDK excluded), modules that the
// node's admission accepts (host imports only, allowed features), the entry points of
// docs/host-abi.md §7, an embedded schema, and the same bytes on every build.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { admitModule } from '../../../runtime/wasm/admission/index.js';
import { buildScript, compiledService, WasmApi } from './program.js';

test('service folders: every folder with an index.ts but the SDK', async () => {
  const names = (await buildScript()).serviceNames();
  assert.ok(names.includes('example'));
  assert.not.ok(names.includes('sdk'));
});

test('the example module passes admission and exports called, start and memory', async () => {
  const { binary, module } = await compiledService('example');
  const admitted = admitModule(binary);
  assert.ok(admitted.imports.length > 0);
  assert.equal(WasmApi.Module.exports(module).map((e) => `${e.kind} ${e.name}`).sort(), ['function called', 'function start', 'memory memory']);
  assert.ok(WasmApi.Module.imports(module).every((i) => i.module === 'env' && i.kind === 'function'));
  const [section] = WasmApi.Module.customSections(module, 'service-schema');
  assert.is((JSON.parse(new TextDecoder().decode(section)) as { service: string }).service, 'example');
});

test('builds are deterministic', async () => {
  const first = await compiledService('example');
  const second = await (await buildScript()).compileService('services-wasm/example/index.ts');
  assert.ok(Buffer.from(first.binary).equals(Buffer.from(second.binary)));
});

test.run();
