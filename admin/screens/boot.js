// Boot: a node without a chain boots the default bundle from here. The browser computes the boot
// transactions with the project's own host-api (served by the node under /lib/host-api), sends
// the first three to push_boot and the rest to transact's push_transaction, as `tsibase boot`
// does. The node must produce as the new chain's producer, so its configuration is set first.
// An account key (a public key) makes a secure chain, as `tsibase boot -k` does; without one it is
// a development chain. A block key can be generated on the node itself (`--block-key`).

import { HttpError, getJson, originOf, postBytes, request, sendJson } from '../api.js';
import { busy, field, h, messageLine, progressList } from '../dom.js';

const DEFAULT_PRODUCER = 'prod';

/** The default bundle's bytes; a node without one says how to build it. */
async function defaultBundle() {
  try {
    return new Uint8Array(await (await request('/default.bundle')).arrayBuffer());
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) throw new Error('this node has no default bundle: build it with `make services`');
    throw err;
  }
}

/** Makes `producer` the node's producer unless it is already. */
async function configureProducer(producer) {
  const config = await getJson('/config');
  if (config.producer !== producer) await sendJson('PUT', '/config', { ...config, producer });
}

/** The pasted public key (PEM or hex) as DER, or undefined when none was given. */
function publicKeyOf(text, hostApi) {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  let der;
  if (trimmed.includes('-----BEGIN')) {
    const pem = hostApi.fromPem(trimmed);
    if (pem.label !== 'PUBLIC KEY') throw new Error(`the account key must be a public key, not a ${pem.label}`);
    der = pem.der;
  } else {
    der = hostApi.hexToBytes(trimmed);
  }
  hostApi.parsePublicKey(der);
  return der;
}

/** A new verify-sig key generated and kept by the node; answers its public key (DER). */
async function generateBlockKey(hostApi) {
  const key = await sendJson('POST', '/native/admin/keys', { service: 'verify-sig' });
  return hostApi.hexToBytes(key.rawData);
}

export const bootScreen = {
  name: 'boot',
  title: 'Boot a chain',
  mount(container, app) {
    if (!app.needsGenesis) {
      container.append(h('p', {}, 'This node has a chain already. See the ', h('a', { href: '#/dashboard' }, 'dashboard'), '.'));
      return;
    }
    const outcome = messageLine();
    const progress = progressList();
    const producer = h('input', { name: 'producer', value: DEFAULT_PRODUCER, required: true });
    const accountKey = h('textarea', { name: 'accountKey', rows: 4, placeholder: '-----BEGIN PUBLIC KEY-----  (or the key as hex)' });
    const blockKey = h('input', { type: 'checkbox', name: 'blockKey' });
    const boot = h('button', { type: 'submit', class: 'primary' }, 'Boot');
    getJson('/config').then((config) => config.producer && (producer.value = config.producer), outcome.error);

    /** Runs one step of the boot, marking it done or failed. */
    const run = async (text, action) => {
      const step = progress.step(text);
      try {
        const result = await action(step);
        step.done();
        return result;
      } catch (err) {
        step.failed();
        throw err;
      }
    };

    const bootChain = async (name, keyText, signBlocks) => {
      container.dataset.boot = 'running';
      progress.clear();
      outcome.clear();
      try {
        await run(`Making ${name} the node's producer`, () => configureProducer(name));
        const bytes = await run('Fetching the default bundle', defaultBundle);
        const hostApi = await run('Loading host-api', () => import('/lib/host-api/index.js'));
        const keys = {};
        if (keyText.trim() !== '') keys.accountKey = await run('Reading the account key', () => publicKeyOf(keyText, hostApi));
        if (signBlocks) keys.blockKey = await run('Generating a block key on the node', () => generateBlockKey(hostApi));
        const transactions = await run('Computing the boot transactions', () => hostApi.bootTransactions(hostApi.unpackBundle(bytes), { producer: name, ...keys }));
        const total = transactions.later.length + 3;
        await run(`Pushing ${total} boot transactions:`, (step) => {
          let sent = 3;
          step.update(`3 of ${total} (push_boot)`);
          return hostApi.runBoot(transactions, {
            pushBoot: (body) => postBytes('/native/admin/push_boot', body),
            push: async (transaction) => {
              const trace = await postBytes(`${originOf('transact')}/push_transaction?wait_for=applied`, transaction);
              step.update(`${++sent} of ${total}`);
              return trace;
            },
          });
        });
        container.dataset.boot = 'done';
        outcome.ok(`Booted${keys.accountKey ? '' : ' a development chain'}: the node produces blocks as ${name}.`);
        await app.refreshStatus();
        app.go('dashboard');
      } catch (err) {
        container.dataset.boot = 'failed';
        outcome.error(err);
      }
    };

    container.append(
      h('p', {}, "This node has no chain yet. Boot one with the node's default bundle: its services, with the producer below."),
      h('form', { onsubmit: (event) => { event.preventDefault(); busy(boot, () => bootChain(producer.value.trim(), accountKey.value, blockKey.checked)); } },
        field('Producer', producer, "the new chain's block producer; the node's configuration is set to produce as it"),
        field('Account key', accountKey, 'the public key every account the boot creates (root, the producer, the system services) authenticates with; without one, a development chain: anyone may act as any of them'),
        field('Block key', blockKey, 'sign blocks with a new key this node generates and keeps'),
        h('div', { class: 'actions' }, boot)),
      progress.element, outcome.element);
  },
};
