// The node's folders import in one direction, lowest layer first (docs/design.md, "Layers"; the
// order is docs/layers.json). The check is scripts/check-layer-order.js, shown here to name the
// file and the import when one runs against the order, and a folder the order does not know.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCheck, withTree as withFiles } from './script-tree.js';

const check = (root?: string) => runCheck('check-layer-order.js', root);

/** A tree with runtime/low below runtime/high and runtime/peer beside low, and the given files. */
function withTree(files: Record<string, string>, run: (root: string) => void) {
  const layers = { folders: 'runtime', layers: [['runtime/low', 'runtime/peer'], ['runtime/high']] };
  withFiles({ 'docs/layers.json': JSON.stringify(layers), 'runtime/low/base.ts': 'export const base = 1;\n', 'runtime/peer/peer.ts': 'export const peer = 2;\n', ...files }, run);
}

test('runtime/ and host-api/ keep the layer order', () => {
  const r = check();
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /layer order: kept by \d+ files in \d+ folders/);
});

test('an import of a higher layer, type-only too, is named with its file', () => {
  withTree({
    'runtime/high/top.ts': "import { base } from '../low/base.js';\nexport const top = base;\n",
    'runtime/low/wrong.ts': "import type { top } from '../high/top.js';\nexport type T = typeof top;\n",
  }, (root) => {
    const r = check(root);
    assert.is(r.status, 1);
    assert.match(r.stderr, "runtime/low/wrong.ts imports '../high/top.js': runtime/low (layer 0) may not import runtime/high (layer 1, higher)");
    assert.not.match(r.stderr, 'runtime/high/top.ts');
  });
});

test('two folders of one layer may not import each other; extensionless imports are read', () => {
  withTree({ 'runtime/peer/side.ts': "import { base } from '../low/base';\nexport const side = base;\n" }, (root) => {
    const r = check(root);
    assert.is(r.status, 1);
    assert.match(r.stderr, "runtime/peer/side.ts imports '../low/base': runtime/peer and runtime/low are one layer (0)");
  });
});

test('a folder or file of runtime/ in no layer fails', () => {
  withTree({ 'runtime/stray/x.ts': 'export const x = 1;\n', 'runtime/loose.ts': 'export const y = 1;\n' }, (root) => {
    const r = check(root);
    assert.is(r.status, 1);
    assert.match(r.stderr, 'runtime/stray is in no layer of docs/layers.json');
    assert.match(r.stderr, 'runtime/loose.ts is in no layer of docs/layers.json');
  });
});

test.run();
