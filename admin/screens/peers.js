// Peers: the node's live peer links (GET /native/admin/peers) and the configured peers it has no
// link to (config peers, which it keeps dialling), each with its state; dialling a URL and closing a
// link. The node answers connect once the dial has begun; the link shows in the list (Refresh)
// when it is up.

import { adminAction } from '../admin-action.js';
import { getJson } from '../api.js';
import { h, messageLine, tableOrNote } from '../dom.js';

/** A link's state cell; `data-link-state` is up or not-linked. */
function linkState(state, text) {
  return h('span', { dataset: { linkState: state } }, text);
}

export const peersScreen = {
  name: 'peers',
  title: 'Peers',
  mount(container) {
    const outcome = messageLine();
    const list = h('div', { dataset: { peerLinks: '' } });
    const url = h('input', { name: 'url', type: 'url', required: true, placeholder: 'http://peer.example:8080' });
    const connect = h('button', { type: 'submit', class: 'primary' }, 'Connect');
    const refresh = h('button', { type: 'button', onclick: () => load().catch(outcome.error) }, 'Refresh');

    const act = adminAction(outcome, () => load());

    const load = async () => {
      const [peers, config] = await Promise.all([getJson('/native/admin/peers'), getJson('/config')]);
      const live = peers.map((peer) => {
        const disconnect = h('button', { class: 'small', onclick: () => act(disconnect, `Disconnected peer ${peer.id}.`, '/native/admin/disconnect', { id: peer.id }) }, 'Disconnect');
        return [String(peer.id), peer.endpoint, peer.url, linkState('up', peer.url ? 'up (dialled by this node)' : 'up (dialled by the peer)'), disconnect];
      });
      // Configured peers without a link: the node keeps dialling them, with backoff.
      const linked = new Set(peers.map((peer) => peer.url));
      const waiting = (config.autoconnect === false ? [] : config.peers).filter((url) => !linked.has(url))
        .map((url) => ['', '', url, linkState('not-linked', 'not linked: dialled again with backoff'), '']);
      list.replaceChildren(tableOrNote('No peer links. Add peers in the configuration (peers) or connect to one below.',
        ['id', 'endpoint', 'URL', 'state', ''], [...live, ...waiting], { dataset: { peers: '' } }));
    };

    container.append(list,
      h('form', {
        class: 'inline',
        onsubmit: (event) => {
          event.preventDefault();
          act(connect, `Dialling ${url.value.trim()}: the link shows above once it is up.`, '/native/admin/connect', { url: url.value.trim() });
        },
      }, h('label', {}, 'Connect to ', url), connect, refresh),
      outcome.element);
    load().catch(outcome.error);
  },
};
