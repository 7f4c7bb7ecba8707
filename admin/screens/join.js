// Join a network: a node without a chain takes the chain of a node that is part of a network, as
// `tsibase node --join <url>` does: the URL goes into the configuration's peers (applied at once,
// kept for good), the node links to it, syncs the chain block by block and then follows the
// network. With a producer name the node produces once the network's producers include it
// (`tsibase producers set`). The steps show as they happen; the sync as a bar.

import { getJson, sendJson } from '../api.js';
import { busy, field, h, messageLine, progressList } from '../dom.js';
import { syncBar } from '../sync-bar.js';

const POLL_MS = 1000;
/** How long a link may take before the screen says what may be wrong (the node keeps redialling). */
const LINK_PATIENCE_MS = 10_000;

/** Adds `url` to the configuration's peers (and sets the producer, when one is given) unless it is there. */
async function configureJoin(url, producer) {
  const config = await getJson('/config');
  const peers = config.peers.includes(url) ? config.peers : [...config.peers, url];
  if (peers !== config.peers || (producer && config.producer !== producer)) {
    await sendJson('PUT', '/config', { ...config, peers, ...(producer ? { producer } : {}) });
  }
}

/** Resolves once a live link was dialled to `url`; `waiting(ms)` is told how long it has taken so far. */
async function linkedTo(url, waiting, stopped) {
  const started = Date.now();
  while (!stopped()) {
    const peers = await getJson('/native/admin/peers');
    if (peers.some((peer) => peer.url === url)) return;
    waiting(Date.now() - started);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export const joinScreen = {
  name: 'join',
  title: 'Join a network',
  mount(container, app) {
    let stopped = false;
    if (!app.needsGenesis && !app.sync?.syncing) {
      container.append(h('p', {}, 'This node has a chain already. See the ', h('a', { href: '#/dashboard' }, 'dashboard'), ' and its ', h('a', { href: '#/peers' }, 'peers'), '.'));
      return;
    }
    const outcome = messageLine();
    const progress = progressList();
    const bar = syncBar();
    const peer = h('input', { name: 'peer', type: 'url', required: true, placeholder: 'http://node.example:8080' });
    const producer = h('input', { name: 'producer', placeholder: 'p4' });
    const join = h('button', { type: 'submit', class: 'primary' }, 'Join');

    const joinNetwork = async (url, name) => {
      container.dataset.join = 'linking';
      progress.clear();
      outcome.clear();
      try {
        const saved = progress.step(`Adding ${url} to the configuration's peers${name ? ` and producing as ${name}` : ''}`);
        await configureJoin(url, name);
        saved.done();
        const link = progress.step(`Linking to ${url}`);
        await linkedTo(url, (ms) => {
          if (ms > LINK_PATIENCE_MS) link.update(`(not linked after ${Math.round(ms / 1000)} s: is the node at ${url} running with --p2p? This node keeps redialling it.)`);
        }, () => stopped);
        if (stopped) return;
        link.done();
        container.dataset.join = 'syncing';
        const sync = progress.step('Syncing the chain');
        progress.element.after(bar.element);
        for (;;) {
          await app.refreshStatus();
          if (stopped) return;
          if (app.sync) bar.show(app.sync);
          if (!app.needsGenesis && app.sync && !app.sync.syncing && app.sync.head > 0) break;
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
        sync.done();
        container.dataset.join = 'done';
        outcome.ok(`Joined: the node follows the network at block ${app.sync.head}${name ? `, and produces as ${name} once the network's producers include it` : ''}.`);
      } catch (err) {
        container.dataset.join = 'failed';
        outcome.error(err);
      }
    };

    container.append(
      h('p', {}, 'This node has no chain yet. Join the network of a node that runs one: this node links to it, syncs its chain block by block, then follows the network.'),
      h('form', { onsubmit: (event) => { event.preventDefault(); busy(join, () => joinNetwork(peer.value.trim(), producer.value.trim())); } },
        field('Peer URL', peer, 'a node of the network, which must accept peer links (started with --p2p); kept in the configuration\'s peers'),
        field('Produce as', producer, 'optional: the producer name this node produces as once the network\'s producers include it'),
        h('div', { class: 'actions' }, join)),
      progress.element, outcome.element);
    return () => {
      stopped = true;
    };
  },
};
