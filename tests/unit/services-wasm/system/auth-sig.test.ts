// auth-sig with real keys: setKey's key check, checkAuthSys for top-level actions (claims,
// firstAuthFlag) and each runAs request, canAuthUserSys, isAuthSys/isRejectSys, newAccount;
// and the whole path of a signed transaction: verify-sig checks the proof, auth-sig the claim.
import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { accountNumberFromName, generateKeyPair, signDigest, type KeyPair } from '../../../../host-api/index.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { loadServices, type SystemService } from './system-services.js';

let chain: TestChain;
let services: Record<'accounts' | 'auth-sig' | 'verify-sig', SystemService>;
let authSig: SystemService;

const alice = generateKeyPair('P-256');
const bob = generateKeyPair('secp256k1');

test.before(async () => {
  services = await loadServices('accounts', 'auth-sig', 'verify-sig');
  authSig = services['auth-sig'];
  chain = TestChain.open();
  for (const service of Object.values(services)) service.deploy(chain);
  services.accounts.call(chain, 'accounts', 'init', {});
  authSig.call(chain, 'accounts', 'newAccount', { name: 'alice', key: alice.publicKey });
  authSig.call(chain, 'accounts', 'newAccount', { name: 'bob', key: bob.publicKey });
});

test.after(async () => {
  await chain.close();
});

const TOP = 1;
const FIRST_TOP = 0x40000001;
const claimOf = (pair: KeyPair, service = 'verify-sig') => ({ service, rawData: pair.publicKey });

function runCheckAuth(flags: number, sender: string, claims: { service: string; rawData: Uint8Array }[]) {
  return authSig.run(chain, 'transact', 'checkAuthSys', {
    flags, requester: '', sender, action: { service: 'tokens', method: 'credit' }, allowedActions: [], claims,
  });
}

function checkAuth(flags: number, sender: string, claims: { service: string; rawData: Uint8Array }[]) {
  return runCheckAuth(flags, sender, claims).error;
}

test('setKey takes the DER SubjectPublicKeyInfo of a P-256 or secp256k1 key, point compressed or not', () => {
  const compressed = (pair: KeyPair) => {
    const prefix = pair.curve === 'P-256' ? '3039301306072a8648ce3d020106082a8648ce3d030107032200' : '3036301006072a8648ce3d020106052b8104000a032200';
    return Uint8Array.from([...Buffer.from(prefix, 'hex'), 2 + (pair.publicKey[64]! & 1), ...pair.publicKey.subarray(-64, -32)]);
  };
  for (const key of [generateKeyPair('P-256').publicKey, generateKeyPair('secp256k1').publicKey, compressed(alice), compressed(bob)]) {
    assert.is(authSig.run(chain, 'carol', 'setKey', { key }).error, undefined);
  }
});

test('setKey refuses anything else', () => {
  const p256 = alice.publicKey;
  const withByte = (at: number, value: number) => { const k = p256.slice(); k[at] = value; return k; };
  const cases: [string, Uint8Array][] = [
    ['empty', new Uint8Array(0)],
    ['a bare point', p256.subarray(-65)],
    ['truncated', p256.subarray(0, p256.length - 1)],
    ['a byte too many', Uint8Array.from([...p256, 0])],
    ['wrong outer length', withByte(1, 0x58)],
    ['another curve OID', withByte(20, 0x08)],
    ['a compressed-point prefix on a full point', withByte(p256.length - 65, 0x02)],
    ['unused bits in the BIT STRING', withByte(p256.length - 66, 0x01)],
  ];
  for (const [name, key] of cases) {
    assert.match(authSig.run(chain, 'carol', 'setKey', { key }).error ?? '', 'invalid public key', name);
  }
});

test('a top-level action passes with a verify-sig claim of the sender\'s key, anywhere among the claims', () => {
  assert.is(checkAuth(TOP, 'alice', [claimOf(alice)]), undefined);
  assert.is(checkAuth(TOP, 'alice', [claimOf(bob), claimOf(alice)]), undefined);
  assert.is(checkAuth(TOP, 'bob', [claimOf(alice), claimOf(bob)]), undefined);
});

test('without a matching claim it aborts: another key, another verify service, no claims', () => {
  for (const claims of [[claimOf(bob)], [claimOf(alice, 'other-sig')], []]) {
    assert.match(checkAuth(TOP, 'alice', claims) ?? '', 'transaction does not include a claim for the key needed to authenticate sender alice');
  }
});

test('a read-only check (checkFirstAuth\'s 0x80000001) answers whether the claim is there: false instead of aborting', () => {
  const READ_ONLY_TOP = 0x80000001;
  for (const [claims, answer] of [[[claimOf(alice)], true], [[claimOf(bob), claimOf(alice)], true], [[claimOf(bob)], false], [[], false]] as const) {
    const result = runCheckAuth(READ_ONLY_TOP, 'alice', [...claims]);
    assert.is(result.error, undefined);
    assert.is(result.value, answer);
  }
  assert.is(runCheckAuth(TOP, 'alice', [claimOf(alice)]).value, true);
});

test('with firstAuthFlag the key must be the first claim', () => {
  assert.is(checkAuth(FIRST_TOP, 'alice', [claimOf(alice), claimOf(bob)]), undefined);
  assert.match(checkAuth(FIRST_TOP, 'alice', [claimOf(bob), claimOf(alice)]) ?? '', 'first sender is not verified by first signature');
  assert.match(checkAuth((0x80000000 | FIRST_TOP) >>> 0, 'alice', [claimOf(bob), claimOf(alice)]) ?? '', 'first sender is not verified by first signature');
});

test('a sender without a key is refused clearly', () => {
  assert.match(checkAuth(TOP, 'nokey', [claimOf(alice)]) ?? '', 'nokey does not have a public key');
});

test('runAs: by the requester or within allowed actions passes; expanding or other runAs aborts', () => {
  assert.is(checkAuth(2, 'nokey', []), undefined);
  assert.is(checkAuth(3, 'nokey', []), undefined);
  assert.match(checkAuth(4, 'alice', [claimOf(alice)]) ?? '', 'runAs: caller attempted to expand powers');
  assert.match(checkAuth(5, 'alice', [claimOf(alice)]) ?? '', 'runAs: caller is not authorized');
  assert.match(checkAuth(0, 'alice', [claimOf(alice)]) ?? '', 'unsupported auth type 0');
  assert.match(checkAuth(6, 'alice', [claimOf(alice)]) ?? '', 'unsupported auth type 6');
});

test('canAuthUserSys: only accounts with a key', () => {
  assert.is(authSig.run(chain, 'accounts', 'canAuthUserSys', { user: 'alice' }).error, undefined);
  assert.match(authSig.run(chain, 'accounts', 'canAuthUserSys', { user: 'nokey' }).error ?? '', 'nokey does not have a public key');
});

test('isAuthSys and isRejectSys: only the account itself, and never when it is in authSet', () => {
  for (const [action, others] of [['isAuthSys', 'authorizers'], ['isRejectSys', 'rejecters']] as const) {
    const ask = (list: string[], authSet: string[] | null) =>
      authSig.call(chain, 'x', action, { sender: 'alice', [others]: list, method: null, authSet }, { mode: 'rpc' });
    assert.is(ask(['bob', 'alice'], null), true, action);
    assert.is(ask(['bob'], null), false, action);
    assert.is(ask([], ['bob']), false, action);
    assert.is(ask(['alice'], ['bob']), true, action);
    assert.is(ask(['alice'], ['alice']), false, action);
  }
});

test('newAccount creates an account that auth-sig authenticates with the given key', () => {
  const dave = generateKeyPair('secp256k1');
  assert.is(authSig.run(chain, 'alice', 'newAccount', { name: 'dave', key: dave.publicKey }).error, undefined);
  assert.is(services.accounts.call(chain, 'x', 'getAuthOf', { account: 'dave' }, { mode: 'rpc' }), accountNumberFromName('auth-sig'));
  assert.is(checkAuth(FIRST_TOP, 'dave', [claimOf(dave)]), undefined);
});

test('newAccount: an existing name, an unknown creator or a bad key change nothing', () => {
  const other = generateKeyPair();
  assert.match(authSig.run(chain, 'alice', 'newAccount', { name: 'dave', key: other.publicKey }).error ?? '', 'account already exists');
  assert.match(checkAuth(TOP, 'dave', [claimOf(other)]) ?? '', 'does not include a claim', 'the old key stays');
  assert.match(authSig.run(chain, 'nobody', 'newAccount', { name: 'erin', key: other.publicKey }).error ?? '', 'only an existing account can create accounts');
  assert.match(authSig.run(chain, 'alice', 'newAccount', { name: 'erin', key: new Uint8Array(3) }).error ?? '', 'invalid public key');
  assert.is(services.accounts.call(chain, 'x', 'exists', { name: 'erin' }, { mode: 'rpc' }), false);
});

test('a signed transaction: verify-sig checks the proof of each claim, auth-sig then finds the sender\'s claim', () => {
  const transactionHash = new Uint8Array(createHash('sha256').update('a transaction from alice').digest());
  const claims = [claimOf(alice), claimOf(bob)];
  for (const [claim, pair] of [[claims[0]!, alice], [claims[1]!, bob]] as const) {
    const verified = services['verify-sig'].run(chain, 0n, 'verifySys', { transactionHash, claim, proof: signDigest(pair, transactionHash) }, { mode: 'verify' });
    assert.is(verified.error, undefined);
  }
  const forged = services['verify-sig'].run(chain, 0n, 'verifySys', { transactionHash, claim: claims[0], proof: signDigest(bob, transactionHash) }, { mode: 'verify' });
  assert.match(forged.error ?? '', 'signature invalid');
  assert.is(checkAuth(FIRST_TOP, 'alice', claims), undefined);
  assert.match(checkAuth(FIRST_TOP, 'bob', claims) ?? '', 'first sender is not verified by first signature');
});

test.run();
