// Dashboard: the node's status values, its chain (and whether it is a development chain), the
// live head and irreversible blocks, the producer set, transaction counters, memory (a chart over
// time) and threads, refreshed every second.

import { getJson, getText, originOf, request, rootHost } from '../api.js';
import { h, messageLine, table } from '../dom.js';
import { formatBytes, formatCount, formatMicroseconds } from '../figures.js';
import { CHART_SAMPLES, memoryChart } from '../memory-chart.js';
import { syncBar } from '../sync-bar.js';

const POLL_MS = 1000;
const TRANSACTION_FIGURES = ['total', 'unprocessed', 'succeeded', 'failed', 'skipped'];

/** Memory samples, kept while the app is open so the chart survives a visit to another screen. */
const memorySamples = [];

function gaugeOf(metrics, name) {
  return new RegExp(`^${name} (\\d+)$`, 'm').exec(metrics)?.[1];
}

/** The producers (and, during a change, the next set) as producers.<root>/graphql serves them. */
async function producerSets() {
  const reply = await request(`${originOf('producers')}/graphql`, {
    method: 'POST', headers: { 'Content-Type': 'application/graphql' }, body: '{ producers { name } nextProducers { name } }',
  });
  const { data } = await reply.json();
  return { current: data.producers.map((p) => p.name), next: data.nextProducers.map((p) => p.name) };
}

function producersLine(sets) {
  const names = (list) => list.map((name) => h('code', { dataset: { producer: name } }, name));
  const joined = (list) => list.flatMap((node, i) => (i === 0 ? [node] : [', ', node]));
  return sets.next.length === 0
    ? joined(names(sets.current))
    : [...joined(names(sets.current)), ' → ', ...joined(names(sets.next)), ' (change pending)'];
}

/**
 * The development-chain warning: the system accounts anyone may act as, asked of the accounts
 * service; `data-security` is secure or development.
 */
async function chainSecurity(element) {
  const { openSystemAccountsIn, systemAccountsQuery } = await import('/lib/host-api/boot/development-chain.js');
  const reply = await request(`${originOf('accounts')}/graphql`, {
    method: 'POST', headers: { 'Content-Type': 'application/graphql' }, body: systemAccountsQuery(),
  });
  const open = openSystemAccountsIn((await reply.json()).data ?? {});
  element.dataset.security = open.length === 0 ? 'secure' : 'development';
  element.replaceChildren(open.length === 0
    ? 'Secure chain: root and the system accounts act only with their keys.'
    : h('strong', {}, `Development chain: anyone may act as ${open.join(', ')} (booted without an account key).`));
}

/** The chain state line; `data-state` is booted, none or error. */
async function chainState(element, needsGenesis) {
  const show = (state, ...nodes) => {
    element.dataset.state = state;
    element.replaceChildren(...nodes);
  };
  // Without a chain the root domain redirects here instead of answering.
  if (needsGenesis) {
    return show('none', 'This node has no chain yet. ', h('a', { href: '#/boot' }, 'Boot one'), '.');
  }
  try {
    const id = await getJson(`${originOf()}/common/chainid`);
    const security = h('span', { dataset: { security: '' } });
    show('booted', 'Chain ', h('code', {}, id), ' is served at ', h('a', { href: `${originOf()}/` }, rootHost), '. ', security);
    await chainSecurity(security).catch((err) => security.replaceChildren(`(cannot tell whether it is a development chain: ${err.message})`));
  } catch (err) {
    show('error', `cannot read the chain id: ${err.message}`);
  }
}

function statusBadges(status) {
  return status.length === 0
    ? [h('span', { class: 'badge ok' }, 'running')]
    : status.map((value) => h('span', { class: 'badge' }, value));
}

function tasksTable(tasks) {
  return table(['thread', 'group', 'user CPU', 'system CPU', 'page faults', 'read', 'written'],
    tasks.map((t) => [String(t.id), t.group, formatMicroseconds(t.user), formatMicroseconds(t.system),
      formatCount(t.pageFaults), formatBytes(t.read), formatBytes(t.written)]), { class: 'figures' });
}

export const dashboardScreen = {
  name: 'dashboard',
  title: 'Dashboard',
  mount(container, app) {
    const status = h('p', { class: 'badges', dataset: { status: '' } });
    const chain = h('p', { dataset: { chainState: '' } }, 'checking…');
    const headBlock = h('output', { class: 'big', dataset: { headBlock: '' } }, '–');
    const irreversible = h('output', { dataset: { irreversibleBlock: '' } }, '–');
    const producers = h('p', { dataset: { producers: '' } }, '–');
    const sync = syncBar();
    const counters = h('dl', { class: 'counters' });
    const memory = h('div');
    const tasks = h('div');
    const problem = messageLine();
    container.append(problem.element,
      h('section', {}, h('h2', {}, 'Node'), status, chain),
      h('section', {}, h('h2', {}, 'Head block'), headBlock, h('p', {}, 'irreversible: ', irreversible)),
      h('section', {}, h('h2', {}, 'Sync'), sync.element),
      h('section', {}, h('h2', {}, 'Producers'), producers),
      h('section', {}, h('h2', {}, 'Transactions'), counters),
      h('section', {}, h('h2', {}, 'Memory'), memory),
      h('section', {}, h('h2', {}, 'Threads'), tasks));

    let chainShownFor;
    let timer;
    let stopped = false;
    const refresh = async () => {
      try {
        const [metrics, perf] = await Promise.all([getText('/native/admin/metrics'), getJson('/native/admin/perf'), app.refreshStatus()]);
        if (stopped) return;
        problem.clear();
        status.replaceChildren(...statusBadges(app.status));
        // The chain id is read once, and again when the node gets a chain.
        if (chainShownFor !== app.needsGenesis) {
          chainShownFor = app.needsGenesis;
          chainState(chain, app.needsGenesis);
        }
        headBlock.textContent = gaugeOf(metrics, 'tsibase_head_block_number') ?? '–';
        irreversible.textContent = gaugeOf(metrics, 'tsibase_irreversible_block_number') ?? '–';
        if (app.sync) sync.show(app.sync);
        if (!app.needsGenesis) producers.replaceChildren(...producersLine(await producerSets()));
        counters.replaceChildren(...TRANSACTION_FIGURES.flatMap((f) =>
          [h('dt', {}, f), h('dd', { dataset: { transactions: f } }, formatCount(perf.transactions[f]))]));
        memorySamples.push(perf.memory);
        if (memorySamples.length > CHART_SAMPLES) memorySamples.shift();
        memory.replaceChildren(memoryChart(memorySamples));
        tasks.replaceChildren(tasksTable(perf.tasks));
      } catch (err) {
        if (!stopped) problem.error(err);
      }
      if (!stopped) timer = setTimeout(refresh, POLL_MS);
    };
    refresh();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  },
};
