// Nothing outside runtime/chain reaches the chain's store, engine, executor or processor (docs/design.md,
// "The chain"); consumers take the narrow interfaces of runtime/chain/interface.ts. The check is
// scripts/check-chain-facade.js, shown here to name the file and line that reach in.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCheck, withTree as withFiles } from './script-tree.js';

const check = (root?: string) => runCheck('check-chain-facade.js', root);

const FACADE = [
  'export class Chain {',
  '  readonly claims: ClaimVerifier;',
  '  private readonly executor: Executor;',
  '  constructor(private readonly store: Store, private readonly engine: Engine) {}',
  '}',
].join('\n');

/** A tree with a facade that keeps its insides private, and the given files. */
function withTree(files: Record<string, string>, run: (root: string) => void) {
  withFiles({ 'runtime/chain/chain.ts': FACADE, 'runtime/chain/block-production.ts': 'this.store.get(1);\n', ...files }, run);
}

test('runtime/ reaches the chain only through its interfaces', () => {
  const r = check();
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /chain facade: kept by \d+ files of runtime\//);
});

test('the tree above passes, what runtime/chain does inside itself included', () => {
  withTree({ 'runtime/http/serve.ts': 'chain.serve(request);\n// chain.executor in a comment\n' }, (root) => {
    const r = check(root);
    assert.is(r.status, 0, r.stderr);
  });
});

test('a file outside runtime/chain that reads the chain\'s store, engine or executor is named with its line', () => {
  withTree({
    'runtime/http/serve.ts': 'const ok = 1;\nthis.chain.executor.run(request);\n',
    'runtime/network/node.ts': "serviceCodeOf(ports.chain?.store, HTTP);\nconst e = chain['engine'];\n",
    'runtime/node/node.ts': 'const { processor, head } = this.chain;\n',
  }, (root) => {
    const r = check(root);
    assert.is(r.status, 1);
    assert.match(r.stderr, "runtime/http/serve.ts:2 reads the chain's executor");
    assert.match(r.stderr, "runtime/network/node.ts:1 reads the chain's store");
    assert.match(r.stderr, "runtime/network/node.ts:2 reads the chain's engine");
    assert.match(r.stderr, "runtime/node/node.ts:1 reads the chain's processor");
  });
});

test('a facade that declares its store or executor without private fails', () => {
  const open = FACADE.replace('private readonly executor', 'readonly executor').replace('private readonly store', 'readonly store');
  withTree({ 'runtime/chain/chain.ts': open }, (root) => {
    const r = check(root);
    assert.is(r.status, 1);
    assert.match(r.stderr, 'runtime/chain/chain.ts:3 declares executor without private');
    assert.match(r.stderr, 'the constructor declares store without private');
    assert.not.match(r.stderr, 'declares engine');
  });
});

test.run();
