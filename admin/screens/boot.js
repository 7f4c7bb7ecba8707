// Boot: a node without a chain boots the default bundle from here. The browser computes the boot
// transactions with the project's own host-api (served by the node under /lib/host-api), sends
// the first three to push_boot and the rest to transact's push_transaction, as `tsibase boot`
// does. The node must produce as the new chain's producer, so its configuration is set first.

import { HttpError, getJson, originOf, postBytes, request, sendJson } from '../api.js';
import { busy, field, h, messageLine } from '../dom.js';

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

/** A list of steps; `step(text)` adds one, marked running, and answers a handle to finish it. */
function progressList() {
  const element = h('ol', { class: 'progress' });
  const step = (text) => {
    const item = h('li', { dataset: { step: 'running' } }, text);
    element.append(item);
    return {
      update: (more) => (item.textContent = `${text} ${more}`),
      done: () => (item.dataset.step = 'done'),
      failed: () => (item.dataset.step = 'failed'),
    };
  };
  return { element, step, clear: () => element.replaceChildren() };
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

    const bootChain = async (name) => {
      container.dataset.boot = 'running';
      progress.clear();
      outcome.clear();
      try {
        await run(`Making ${name} the node's producer`, () => configureProducer(name));
        const bytes = await run('Fetching the default bundle', defaultBundle);
        const hostApi = await run('Loading host-api', () => import('/lib/host-api/index.js'));
        const transactions = await run('Computing the boot transactions', () => hostApi.bootTransactions(hostApi.unpackBundle(bytes), { producer: name }));
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
        outcome.ok(`Booted: the node produces blocks as ${name}.`);
        await app.refreshStatus();
        app.go('dashboard');
      } catch (err) {
        container.dataset.boot = 'failed';
        outcome.error(err);
      }
    };

    container.append(
      h('p', {}, "This node has no chain yet. Boot one with the node's default bundle: its services, with the producer below."),
      h('form', { onsubmit: (event) => { event.preventDefault(); busy(boot, () => bootChain(producer.value.trim())); } },
        field('Producer', producer, "the new chain's block producer; the node's configuration is set to produce as it"),
        h('div', { class: 'actions' }, boot)),
      progress.element, outcome.element);
  },
};
