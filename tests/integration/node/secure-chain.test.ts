// A chain booted with -k/--account-key and --block-key (docs/system-services.md, "Secure and
// development chains"), on a real node: every account the boot creates authenticates with
// auth-sig and the key, so no unsigned or wrongly signed transaction acts as root, the producer
// or a service account, neither at the top level nor through transact::runAs (each of its four
// rules), while the key's holder can; transact::checkFirstAuth answers false (not an abort) for a
// transaction without the first sender's key; the producer signs every block after the boot block.
// A chain booted without a key is a development chain, and the node, `tsibase info` and the
// issue's runAs takeover show it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  SYSTEM_ACCOUNTS, SignedTransaction, Transaction, blockId, bytesToHex, compileSchema, CORE_SCHEMA, generateKeyPair,
  privateKeyToPkcs8, signDigest, toPem, transactionId, verifyDigest, type KeyPair,
} from '../../../host-api/index.js';
import { readBlock } from '../../../runtime/chain/block-log.js';
import { readBlockSignature } from '../../../runtime/chain/block-signing.js';
import { ChainClient, type ActionInput } from '../../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { sha256 } from '../../../runtime/crypto/sha256.js';
import { LmdbStore } from '../../../runtime/db/lmdb-store.js';
import { adminRequest } from '../../lib/admin-requests.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { waitForBlocks } from '../../lib/chain-head.js';
import { runCli } from '../../lib/cli-process.js';
import { startNode } from '../../lib/node-process.js';
import { runsNode, type NodeContext } from '../../lib/node-suite.js';
import { testBundle } from '../../lib/test-bundle.js';
import { compiledEntry } from '../../unit/services-wasm/program.js';
import { actionsUnder } from '../../../host-api/traces/trace-json.js';

const schema = compileSchema(CORE_SCHEMA);
const args = (members: Record<string, unknown>) => schema.typeOf({ Object: members as never });
const RUN_AS = args({ action: 'Action', allowedActions: { List: { Object: { service: 'AccountNumber', method: 'MethodNumber' } } } });
const SET_AUTH_SERV = args({ authService: 'AccountNumber' });
const EXISTS = args({ name: 'AccountNumber' });
const NEW_ACCOUNT = args({ name: 'AccountNumber', key: 'bytes' });
const NO_ARGS = new Uint8Array([0, 0]);
const CHECK_FIRST_AUTH = args({ id: 'Checksum256', transaction: 'Transaction' });

/** The bundle's services besides the default ones: `runner` calls transact::runAs for its sender. */
async function runnerService() {
  const runner = await compiledEntry('tests/unit/services-wasm/transact/services/runner.as.ts');
  return { account: 'runner', flags: 0n, code: runner.binary, genesis: false, server: null, initActions: [], files: [] };
}

/** Every account a boot of the test bundle creates: root, the producer and each service account. */
const BOOTED_ACCOUNTS = [...new Set([...SYSTEM_ACCOUNTS, 'prod', 'sites', 'common-api', 'homepage', 'events', 'explorer', 'example', 'runner'])];

interface Ctx extends NodeContext {
  client: ChainClient;
  /** The account key (root's and every system account's). */
  root: KeyPair;
  block: KeyPair;
  alice: KeyPair;
  bob: KeyPair;
  /** A key nobody uses. */
  stranger: KeyPair;
}

function writeKey(dir: string, name: string, pair: KeyPair): string {
  const file = join(dir, `${name}.pem`);
  writeFileSync(file, toPem('PRIVATE KEY', privateKeyToPkcs8(pair)), { mode: 0o600 });
  return file;
}

/** The auth service of each of `accounts`, from the accounts service's GraphQL. */
async function authServices(client: ChainClient, accounts: readonly string[]): Promise<Record<string, string | undefined>> {
  const data = await client.graphql('accounts', `{ ${accounts.map((a, i) => `a${i}: getAccount(account: "${a}") { accountNum authService }`).join(' ')} }`);
  return Object.fromEntries(accounts.map((a, i) => [a, (data[`a${i}`] as { authService: string } | null)?.authService]));
}

const action = (sender: string, service: string, method: string, rawData: Uint8Array): ActionInput => ({ sender, service, method, rawData });
const runAs = (sender: string, inner: ActionInput, allowed: { service: string; method: string }[] = []) =>
  action(sender, 'transact', 'runAs', RUN_AS.pack({ action: inner, allowedActions: allowed }));
const record = (sender: string) => action(sender, 'runner', 'record', NO_ARGS);
const takeOver = (sender: string) => action(sender, 'accounts', 'setAuthServ', SET_AUTH_SERV.pack({ authService: 'auth-any' }));

/**
 * A transaction whose claim names `claimed` (the key the sender needs) but whose proof is made by
 * `signer`: a forged signature, which verify-sig refuses.
 */
async function pushForged(ctx: Ctx, actions: ActionInput[], claimed: KeyPair, signer: KeyPair): Promise<unknown> {
  const tapos = { ...(await ctx.client.tapos(10)), flags: 0 };
  const packed = Transaction.pack({ tapos, actions, claims: [{ service: 'verify-sig', rawData: claimed.publicKey }] });
  const signed = SignedTransaction.pack({ transaction: packed, proofs: [signDigest(signer, transactionId(packed))], subjectiveData: null });
  const r = await httpRequest(`${serviceUrl(ctx.node.api, 'transact', '/push_transaction')}?wait_for=applied`, {
    method: 'POST', body: signed, headers: { 'content-type': 'application/octet-stream' },
  });
  const trace = r.status === 200 ? (r.json() as { error: string | null }) : { error: r.text() };
  if (trace.error) throw new Error(trace.error);
  return trace;
}

/** Every way an outsider may try: no signature, a valid signature of another key, a forged one for the right key. */
async function assertRefusedToAll(ctx: Ctx, actions: ActionInput[], rightKey: KeyPair, why: string): Promise<string[]> {
  return [
    await rejectionMessage(ctx.client.push(actions, { waitFor: 'applied' }), `${why}: unsigned`),
    await rejectionMessage(ctx.client.push(actions, { waitFor: 'applied', keys: [ctx.stranger] }), `${why}: signed by a stranger`),
    await rejectionMessage(pushForged(ctx, actions, rightKey, ctx.stranger), `${why}: a forged signature`),
  ];
}

const keyed = suite<Ctx>('a chain booted with --account-key and --block-key');

runsNode(keyed, 'secure-chain', async (dir, ctx) => {
  Object.assign(ctx, { root: generateKeyPair(), block: generateKeyPair('secp256k1'), alice: generateKeyPair(), bob: generateKeyPair(), stranger: generateKeyPair() });
  const bundle = join(dir, 'test.bundle');
  writeFileSync(bundle, await testBundle([await runnerService()]));
  const node = await startNode(join(dir, 'node'), [
    '-p', 'prod', '--boot', bundle, '--block-interval', '200', '-k', writeKey(dir, 'root', ctx.root), '--block-key', writeKey(dir, 'block', ctx.block),
  ]);
  ctx.client = new ChainClient(node.api);
  for (const [name, pair] of [['alice', ctx.alice], ['bob', ctx.bob]] as const) {
    await ctx.client.push([action('root', 'auth-sig', 'newAccount', NEW_ACCOUNT.pack({ name, key: pair.publicKey }))], { waitFor: 'applied', keys: [ctx.root] });
  }
  return node;
});

keyed('every account the boot creates authenticates with auth-sig and the key; the node, info and the log say it is not a development chain', async (ctx) => {
  const auth = await authServices(ctx.client, BOOTED_ACCOUNTS);
  for (const account of BOOTED_ACCOUNTS) assert.is(auth[account], 'auth-sig', account);
  const info = await runCli(ctx.node.api, ['info']);
  assert.is(info.status, 0, info.stderr);
  assert.match(info.stdout, 'security:    secure');
  assert.not.match(ctx.node.output(), 'development chain');
});

keyed('no unsigned, stranger-signed or forged transaction acts as root, the producer or any service account; nothing changes', async (ctx) => {
  for (const account of BOOTED_ACCOUNTS) {
    const refusals = await assertRefusedToAll(ctx, [takeOver(account)], ctx.root, `acting as ${account}`);
    assert.match(refusals[0]!, `transaction does not include a claim for the key needed to authenticate sender ${account}`);
    assert.match(refusals[1]!, `transaction does not include a claim for the key needed to authenticate sender ${account}`);
    assert.match(refusals[2]!, 'signature invalid');
  }
  const auth = await authServices(ctx.client, BOOTED_ACCOUNTS);
  for (const account of BOOTED_ACCOUNTS) assert.is(auth[account], 'auth-sig', `${account} kept its auth service`);
});

keyed('the key\'s holder acts as root and every system account', async (ctx) => {
  await ctx.client.push([action('root', 'auth-sig', 'newAccount', NEW_ACCOUNT.pack({ name: 'carol', key: ctx.stranger.publicKey }))], { waitFor: 'applied', keys: [ctx.root] });
  assert.is((await authServices(ctx.client, ['carol'])).carol, 'auth-sig');
  const actions = BOOTED_ACCOUNTS.map((account) => action(account, 'accounts', 'exists', EXISTS.pack({ name: account })));
  const { trace } = await ctx.client.push(actions, { waitFor: 'applied', keys: [ctx.root] });
  assert.is(trace.error, null);
});

keyed('runAs rule 1: the sender\'s auth service acts for it only with the key (the unsigned takeover of a development chain fails)', async (ctx) => {
  // The takeover that works on a development chain: auth-sig, alice's auth service, runs as alice.
  const refusals = await assertRefusedToAll(ctx, [runAs('auth-sig', record('alice'))], ctx.root, 'auth-sig acting for alice');
  assert.match(refusals[0]!, 'authenticate sender auth-sig');
  const { trace } = await ctx.client.push([runAs('auth-sig', record('alice'))], { waitFor: 'applied', keys: [ctx.root] });
  assert.is(trace.error, null);
});

keyed('runAs rule 2: an account runs as itself only when its own key signs', async (ctx) => {
  await assertRefusedToAll(ctx, [runAs('alice', record('alice'))], ctx.alice, 'alice running as alice');
  const { trace } = await ctx.client.push([runAs('alice', record('alice'))], { waitFor: 'applied', keys: [ctx.alice] });
  assert.is(trace.error, null);
});

keyed('runAs rule 3: within bob\'s runAs, runner may do what bob allowed for bob, never act for another account', async (ctx) => {
  const nested = (innerSender: string) =>
    runAs('bob', action('bob', 'runner', 'runAs', RUN_AS.pack({ action: record(innerSender), allowedActions: [] })), [{ service: 'runner', method: 'record' }]);
  const { trace } = await ctx.client.push([nested('bob')], { waitFor: 'applied', keys: [ctx.bob] });
  assert.is(trace.error, null);
  assert.match(await rejectionMessage(ctx.client.push([nested('alice')], { waitFor: 'applied', keys: [ctx.bob] }), 'runner acted for alice'), 'runAs: caller is not authorized');
  assert.match(await rejectionMessage(ctx.client.push([nested('root')], { waitFor: 'applied', keys: [ctx.bob] }), 'runner acted for root'), 'runAs: caller is not authorized');
  await assertRefusedToAll(ctx, [nested('bob')], ctx.bob, 'the same without bob\'s key');
});

keyed('runAs rule 4: any other caller is refused, for root, the producer and the system accounts too', async (ctx) => {
  for (const target of ['root', 'prod', 'transact', 'producers', 'alice']) {
    const direct = ctx.client.push([runAs('bob', takeOver(target))], { waitFor: 'applied', keys: [ctx.bob] });
    assert.match(await rejectionMessage(direct, `bob ran as ${target}`), 'runAs: caller is not authorized');
    const throughRunner = ctx.client.push([action('bob', 'runner', 'runAs', RUN_AS.pack({ action: takeOver(target), allowedActions: [] }))], { waitFor: 'applied', keys: [ctx.bob] });
    assert.match(await rejectionMessage(throughRunner, `runner ran as ${target}`), 'runAs: caller is not authorized');
  }
  const auth = await authServices(ctx.client, ['root', 'prod', 'transact', 'producers', 'alice']);
  assert.equal(Object.values(auth), ['auth-sig', 'auth-sig', 'auth-sig', 'auth-sig', 'auth-sig']);
});

keyed('checkFirstAuth answers whether the first sender\'s key is claimed: false, not an abort, when it is not', async (ctx) => {
  const tapos = { ...(await ctx.client.tapos(60)), flags: 0 };
  /** Asks (as alice, signed) about a transaction of alice's carrying `claims`; its answer. */
  const ask = async (claims: KeyPair[]) => {
    const inner = Transaction.pack({ tapos, actions: [record('alice')], claims: claims.map((k) => ({ service: 'verify-sig', rawData: k.publicKey })) });
    const question = action('alice', 'transact', 'checkFirstAuth', CHECK_FIRST_AUTH.pack({ id: transactionId(inner), transaction: Transaction.unpack(inner) }));
    const { trace } = await ctx.client.push([question], { waitFor: 'applied', keys: [ctx.alice] });
    const answers = trace.actionTraces.flatMap(actionsUnder).filter((t) => t.action.service === 'transact' && t.action.method.startsWith('#'));
    assert.is(answers.length, 1);
    return answers[0]!.rawRetval;
  };
  assert.is(await ask([ctx.alice]), '01');
  assert.is(await ask([ctx.bob, ctx.alice]), '01');
  assert.is(await ask([]), '00');
  assert.is(await ask([ctx.bob]), '00');
});

keyed('the node holds the block key and signs every block after the boot block with it', async (ctx) => {
  const keys = (await adminRequest(ctx.node, '/native/admin/keys')).json() as { service: string; rawData: string }[];
  assert.ok(keys.some((k) => k.service === 'verify-sig' && k.rawData === bytesToHex(ctx.block.publicKey)), JSON.stringify(keys));
  // Enough blocks to check, however fast the tests before ran (five a second).
  await waitForBlocks(ctx.client, 0, 10);
  await ctx.node.stop();
  const store = LmdbStore.open(join(ctx.dir, 'node', 'db'));
  try {
    assert.is(readBlockSignature(store, 2), undefined, 'the boot block has no producer claim to sign for yet');
    let n = 3;
    for (; readBlock(store, n); n++) {
      const signature = readBlockSignature(store, n);
      assert.ok(signature, `block ${n} is signed`);
      const digest = sha256(Uint8Array.from([0x00, 0xce, 0xa8, 0x42, ...blockId(readBlock(store, n)!.header)]));
      assert.ok(verifyDigest(ctx.block.publicKey, digest, signature!), `block ${n}'s signature is the block key's`);
    }
    assert.ok(n - 3 >= 5, `several blocks checked (${n - 3})`);
  } finally {
    await store.close();
  }
});

keyed.run();

const cli = suite<NodeContext>('tsibase boot -k --block-key against a node without a chain');

runsNode(cli, 'secure-boot-cli', (dir) => startNode(join(dir, 'node'), ['-p', 'prod', '--block-interval', '200']));

cli('boots a secure chain, stores the private block key on the node and signs blocks with it', async (ctx) => {
  const root = generateKeyPair('secp256k1');
  const block = generateKeyPair();
  const bundle = join(ctx.dir, 'test.bundle');
  writeFileSync(bundle, await testBundle());
  const publicRoot = join(ctx.dir, 'root.pub.pem');
  writeFileSync(publicRoot, toPem('PUBLIC KEY', root.publicKey));
  const booted = await runCli(ctx.node.api, ['boot', bundle, '-k', publicRoot, '--block-key', writeKey(ctx.dir, 'block', block)]);
  assert.is(booted.status, 0, booted.stderr);
  assert.not.match(booted.stdout, 'development chain');
  const client = new ChainClient(ctx.node.api);
  const auth = await authServices(client, SYSTEM_ACCOUNTS);
  for (const account of SYSTEM_ACCOUNTS) assert.is(auth[account], 'auth-sig', account);
  assert.match(await rejectionMessage(client.push([takeOver('root')], { waitFor: 'applied' }), 'unsigned root'), 'authenticate sender root');
  await client.push([action('root', 'accounts', 'exists', EXISTS.pack({ name: 'root' }))], { keys: [root] }); // waits for a final block
  const keys = (await adminRequest(ctx.node, '/native/admin/keys')).json() as { rawData: string }[];
  assert.ok(keys.some((k) => k.rawData === bytesToHex(block.publicKey)));
  assert.not.match(ctx.node.output(), 'block production:', 'the node never lacked the block key');
});

cli('refuses key arguments that are not keys, naming the option', async (ctx) => {
  const notAKey = join(ctx.dir, 'not-a-key.pem');
  writeFileSync(notAKey, 'hello');
  const r = await runCli(ctx.node.api, ['boot', '-k', notAKey]);
  assert.is(r.status, 2);
  assert.match(r.stderr, /--account-key: .*not-a-key\.pem/);
  const missing = await runCli(ctx.node.api, ['boot', '--block-key', join(ctx.dir, 'missing.pem')]);
  assert.is(missing.status, 2);
  assert.match(missing.stderr, '--block-key: ');
});

cli.run();

const development = suite<NodeContext>('a chain booted without --account-key');

runsNode(development, 'development-chain', async (dir) => {
  const bundle = join(dir, 'test.bundle');
  writeFileSync(bundle, await testBundle([await runnerService()]));
  return startNode(join(dir, 'node'), ['-p', 'prod', '--boot', bundle, '--block-interval', '200']);
});

development('is a development chain: the log at every start and tsibase info say so, and an unsigned runAs takes over an account', async (ctx) => {
  const warning = /this is a development chain \(booted without --account-key\): anyone may act as root, transact, accounts, auth-sig, auth-any, verify-sig, setcode, producers, http/;
  assert.match(ctx.node.output(), warning);
  const info = await runCli(ctx.node.api, ['info']);
  assert.match(info.stdout, 'security:    DEVELOPMENT CHAIN: anyone may act as root, transact');
  // The issue's takeover: alice has a key, yet an unsigned runAs by her auth service acts as her.
  const client = new ChainClient(ctx.node.api);
  await client.push([action('root', 'auth-sig', 'newAccount', NEW_ACCOUNT.pack({ name: 'alice', key: generateKeyPair().publicKey }))], { waitFor: 'applied' });
  const { trace } = await client.push([runAs('auth-sig', record('alice'))], { waitFor: 'applied' });
  assert.is(trace.error, null, 'what an account key prevents');

  await ctx.node.stop();
  ctx.node = await startNode(join(ctx.dir, 'node'), ['-p', 'prod', '--block-interval', '200']);
  assert.match(ctx.node.output(), warning);
});

development.run();
