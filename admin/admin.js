// The x-admin app, served by the node itself at x-admin.<root> (before boot too). It shows
// whether the node has a chain: the root domain answers /common/chainid once it has one, and
// redirects here while it has none.

const root = location.host.replace(/^x-admin\./, '');
const rootUrl = `${location.protocol}//${root}`;

function show(...nodes) {
  const state = document.querySelector('[data-chain-state]');
  state.replaceChildren(...nodes);
  return state;
}

function code(text) {
  const c = document.createElement('code');
  c.textContent = text;
  return c;
}

async function chainState() {
  let reply;
  try {
    reply = await fetch(`${rootUrl}/common/chainid`, { redirect: 'manual' });
  } catch (err) {
    show(`cannot reach ${rootUrl}: ${err.message}`).dataset.state = 'error';
    return;
  }
  if (reply.type === 'opaqueredirect' || reply.status === 503) {
    show('This node has no chain yet. Boot the default one with ', code(`tsibase boot -a ${rootUrl}`), '.').dataset.state = 'none';
    return;
  }
  const id = await reply.json();
  const link = document.createElement('a');
  link.href = `${rootUrl}/`;
  link.textContent = root;
  show('Chain ', code(id), ' is served at ', link, '.').dataset.state = 'booted';
}

chainState();
