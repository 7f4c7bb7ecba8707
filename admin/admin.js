// The x-admin app, served by the node itself at x-admin.<root> (before boot too): one screen at
// a time, chosen by the location's hash (#/config …). Each screen's mount() fills the page and
// answers a function that stops what it started (polling, sockets) when another one is shown.

import { getJson } from './api.js';
import { h } from './dom.js';
import { bootScreen } from './screens/boot.js';
import { configScreen } from './screens/config.js';
import { dashboardScreen } from './screens/dashboard.js';
import { joinScreen } from './screens/join.js';
import { keysScreen } from './screens/keys.js';
import { logsScreen } from './screens/logs.js';
import { peersScreen } from './screens/peers.js';

const SCREENS = [dashboardScreen, configScreen, peersScreen, logsScreen, keysScreen, joinScreen, bootScreen];
/** Screens for a node without a chain: offered in the nav only then. */
const SETUP_SCREENS = [joinScreen, bootScreen];

/** What screens share: the node's status values and a way to switch screens. */
const app = {
  /** The last status of GET /native/admin/status, e.g. [] or ['needgenesis']. */
  status: [],
  /** The block sync's figures with it (`?sync`): head, best, behind, blocksPerSecond, secondsLeft. */
  sync: undefined,
  get needsGenesis() {
    return this.status.includes('needgenesis');
  },
  async refreshStatus() {
    const before = this.needsGenesis;
    ({ status: this.status, sync: this.sync } = await getJson('/native/admin/status?sync'));
    if (this.needsGenesis !== before) renderNav();
  },
  go(name) {
    location.hash = `#/${name}`;
  },
};

let stopScreen = () => {};

function currentScreen() {
  const name = location.hash.replace(/^#\/?/, '') || (app.needsGenesis ? 'boot' : 'dashboard');
  return SCREENS.find((s) => s.name === name) ?? dashboardScreen;
}

/** The nav bar; joining a network and booting a chain are offered only while the node has no chain. */
function renderNav() {
  const current = currentScreen();
  const shown = SCREENS.filter((s) => !SETUP_SCREENS.includes(s) || app.needsGenesis || current === s);
  document.querySelector('nav').replaceChildren(...shown.map((s) =>
    h('a', { href: `#/${s.name}`, 'aria-current': s === current ? 'page' : undefined, class: SETUP_SCREENS.includes(s) ? 'boot' : undefined }, s.title)));
}

function showScreen() {
  stopScreen();
  const screen = currentScreen();
  renderNav();
  const container = document.getElementById('screen');
  container.replaceChildren(h('h1', {}, screen.title));
  document.title = `${screen.title} · tsibase node`;
  stopScreen = screen.mount(container, app) ?? (() => {});
}

window.addEventListener('hashchange', showScreen);
// The status decides the first screen; a node that cannot tell still gets the app.
app.refreshStatus().catch(() => {}).finally(showScreen);
