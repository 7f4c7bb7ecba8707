// Keys and devices: the node's signing keys (GET /native/admin/keys), generating one (in the
// node's store or on an unlocked PKCS#11 device), importing a private key, and unlocking or
// locking devices. The node's refusals (400/403/404/409) are shown with its text.

import { adminAction } from '../admin-action.js';
import { getJson } from '../api.js';
import { field, h, messageLine, tableOrNote } from '../dom.js';

const DEFAULT_SERVICE = 'verify-sig';

/** PKCS#8 as the node takes it: hex as typed, or a PEM block turned into hex. */
function pkcs8Hex(text) {
  const pem = /-----BEGIN PRIVATE KEY-----([^-]+)-----END PRIVATE KEY-----/.exec(text);
  if (!pem) return text.trim();
  const bytes = atob(pem[1].replace(/\s+/g, ''));
  return [...bytes].map((c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');
}

export const keysScreen = {
  name: 'keys',
  title: 'Keys and devices',
  mount(container) {
    const outcome = messageLine();
    const keyList = h('div');
    const deviceList = h('div');
    const service = h('input', { name: 'service', value: DEFAULT_SERVICE });
    const store = h('select', { name: 'device' });
    const privateKey = h('textarea', { name: 'private-key', rows: 4, spellcheck: 'false', placeholder: 'PKCS#8 in hex, or a PEM "PRIVATE KEY" block' });

    const load = async () => {
      const [keys, devices] = await Promise.all([getJson('/native/admin/keys'), getJson('/native/admin/keys/devices')]);
      keyList.replaceChildren(tableOrNote('The node holds no keys.',
        ['verify service', 'public key'], keys.map((k) => [k.service, h('code', { class: 'hex' }, k.rawData)]), { dataset: { keys: '' } }));
      deviceList.replaceChildren(tableOrNote('No PKCS#11 devices. Add modules in the configuration (pkcs11-modules).',
        ['device', 'id', 'state', ''], devices.map(deviceRow), { dataset: { devices: '' } }));
      // Keys are generated in the node's store or on an unlocked device.
      store.replaceChildren(h('option', { value: '' }, "the node's key store"),
        ...devices.filter((d) => d.unlocked).map((d) => h('option', { value: d.id }, d.name)));
    };

    const act = adminAction(outcome, () => load());

    function deviceRow(device) {
      const name = `${device.name} (${device.id})`;
      if (device.unlocked) {
        const lock = h('button', { class: 'small', onclick: () => act(lock, `Locked ${name}.`, '/native/admin/keys/lock', { device: device.id }) }, 'Lock');
        return [device.name, device.id, 'unlocked', lock];
      }
      const pin = h('input', { type: 'password', 'aria-label': `PIN of ${device.name}`, placeholder: 'PIN', size: 8 });
      const unlock = h('button', { class: 'small', onclick: () => act(unlock, `Unlocked ${name}.`, '/native/admin/keys/unlock', { device: device.id, pin: pin.value }) }, 'Unlock');
      return [device.name, device.id, 'locked', h('span', { class: 'inline' }, pin, unlock)];
    }

    const generate = h('button', {
      type: 'button', class: 'primary',
      onclick: () => act(generate, 'Generated a key.', '/native/admin/keys',
        { service: service.value.trim(), ...(store.value ? { device: store.value } : {}) }),
    }, 'Generate key');
    const importKey = h('button', {
      type: 'button',
      onclick: () => act(importKey, 'Imported the key.', '/native/admin/keys', { service: service.value.trim(), rawData: pkcs8Hex(privateKey.value) }),
    }, 'Import key');

    container.append(outcome.element,
      h('section', {}, h('h2', {}, 'Keys'), keyList),
      h('section', {}, h('h2', {}, 'Add a key'),
        h('div', { class: 'form' },
          field('Verify service', service, 'the service that checks signatures made with the key'),
          h('div', { class: 'actions' }, h('label', {}, 'Generate in ', store), generate),
          field('Private key to import', privateKey),
          h('div', { class: 'actions' }, importKey))),
      h('section', {}, h('h2', {}, 'Devices'), deviceList));
    load().catch(outcome.error);
  },
};
