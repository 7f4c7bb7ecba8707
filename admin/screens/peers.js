// Peers: the node's peer connections (GET /native/admin/peers), connecting to a URL and
// disconnecting one. This node has no peer-to-peer layer yet, so the node refuses both with a
// 501 that says so; the refusal is shown like any other.

import { adminAction } from '../admin-action.js';
import { getJson } from '../api.js';
import { h, messageLine, tableOrNote } from '../dom.js';

export const peersScreen = {
  name: 'peers',
  title: 'Peers',
  mount(container) {
    const outcome = messageLine();
    const list = h('div');
    const url = h('input', { name: 'url', type: 'url', required: true, placeholder: 'http://peer.example:8080' });
    const connect = h('button', { type: 'submit', class: 'primary' }, 'Connect');

    const act = adminAction(outcome, () => load());

    const load = async () => {
      const peers = await getJson('/native/admin/peers');
      list.replaceChildren(tableOrNote('No peers. Add some in the configuration (peers) or connect to one below.',
        ['id', 'endpoint', 'URL', ''], peers.map((peer) => {
          const disconnect = h('button', { class: 'small', onclick: () => act(disconnect, `Disconnected peer ${peer.id}.`, '/native/admin/disconnect', { id: peer.id }) }, 'Disconnect');
          return [String(peer.id), peer.endpoint, peer.url, disconnect];
        }), { dataset: { peers: '' } }));
    };

    container.append(list,
      h('form', {
        class: 'inline',
        onsubmit: (event) => {
          event.preventDefault();
          act(connect, `Connected to ${url.value}.`, '/native/admin/connect', { url: url.value.trim() });
        },
      }, h('label', {}, 'Connect to ', url), connect),
      outcome.element);
    load().catch(outcome.error);
  },
};
