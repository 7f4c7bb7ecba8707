// Configuration editor: GET /config into a form, PUT /config with the whole object back. Fields
// the form does not know (and tls) are sent back exactly as they came (docs/administration.md §2); the node
// checks every value and names the field it refuses, which is shown as is.

import { getJson, sendJson } from '../api.js';
import { busy, field, h, messageLine } from '../dom.js';
import { rowsEditor } from '../rows-editor.js';

/** Fields the form edits; the rest (tls and database_cache_size too) is shown as kept and sent back as it came. */
const EDITED_FIELDS = ['p2p', 'peers', 'autoconnect', 'producer', 'pkcs11-modules', 'hosts', 'listen', 'services', 'http_timeout', 'loggers'];

const lines = (text) => text.split('\n').map((line) => line.trim()).filter((line) => line !== '');

/** A whole number typed in a text box; anything else goes to the node as typed, for it to name. */
const wholeNumberOr = (text) => (/^\d+$/.test(text) ? Number(text) : text);

function autoconnectOf(text) {
  return text === 'true' || text === 'false' ? text === 'true' : wholeNumberOr(text);
}

/** A listen row; an empty address is left out, so the node's default (127.0.0.1) applies. */
function listenOf({ protocol, address, port, path }) {
  return protocol === 'local' ? { protocol, path } : { protocol, address: address || undefined, port: wholeNumberOr(port) };
}

function loggersOf(text) {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`loggers: not JSON: ${err.message}`);
  }
}

/** The form for `config`; `read()` answers the configuration it shows, unknown fields included. */
function configForm(config) {
  const text = (name, value, props = {}) => h('input', { name, value, ...props });
  const area = (name, value, rows = 3) => h('textarea', { name, rows, spellcheck: 'false' }, value);
  const inputs = {
    producer: text('producer', config.producer, { placeholder: 'none: the node does not produce blocks' }),
    hosts: area('hosts', config.hosts.join('\n')),
    peers: area('peers', config.peers.join('\n')),
    p2p: h('input', { type: 'checkbox', name: 'p2p', checked: config.p2p }),
    autoconnect: text('autoconnect', String(config.autoconnect)),
    httpTimeout: text('http_timeout', config.http_timeout === null ? '' : String(config.http_timeout)),
    pkcs11Modules: area('pkcs11-modules', config['pkcs11-modules'].join('\n'), 2),
    loggers: area('loggers', JSON.stringify(config.loggers, null, 2), 10),
  };
  const listen = rowsEditor('listen', [
    { key: 'protocol', label: 'protocol', options: ['http', 'https', 'local'] },
    { key: 'address', label: 'address' }, { key: 'port', label: 'port' }, { key: 'path', label: 'path (local)' },
  ], config.listen);
  const services = rowsEditor('services', [{ key: 'host', label: 'host' }, { key: 'root', label: 'root directory' }], config.services);
  const kept = Object.keys(config).filter((name) => !EDITED_FIELDS.includes(name));

  const element = h('div', { class: 'form' },
    h('fieldset', {}, h('legend', {}, 'Chain'),
      field('Producer', inputs.producer, 'the account this node produces blocks as'),
      field('Host names', inputs.hosts, 'one per line; the node serves <service>.<host>')),
    h('fieldset', {}, h('legend', {}, 'Peers'),
      field('Peers', inputs.peers, 'one URL per line'),
      h('label', { class: 'check' }, inputs.p2p, ' accept peer-to-peer connections (p2p)'),
      field('Autoconnect', inputs.autoconnect, 'true, false, or how many peers to keep connected')),
    h('fieldset', {}, h('legend', {}, 'HTTP'),
      field('Idle timeout (µs)', inputs.httpTimeout, 'closes idle connections after this long; empty: never'),
      h('div', { class: 'field' }, h('span', { class: 'label' }, 'Listen'), listen.element,
        h('small', {}, 'listen and tls take effect when the node next starts')),
      h('div', { class: 'field' }, h('span', { class: 'label' }, 'Static content hosts'), services.element,
        h('small', {}, 'a host ending in "." is followed by each host name above'))),
    h('fieldset', {}, h('legend', {}, 'Keys and logging'),
      field('PKCS#11 modules', inputs.pkcs11Modules, 'one library path per line'),
      field('Loggers (JSON)', inputs.loggers, '{"name": {"type": "console" | "file" | …, "filter": …, "format": …}}')),
    kept.length > 0 && h('p', { class: 'note' }, 'Kept unchanged: ', kept.flatMap((name) => [h('code', {}, name), ' '])));

  const read = () => ({
    ...config,
    producer: inputs.producer.value.trim(),
    hosts: lines(inputs.hosts.value),
    peers: lines(inputs.peers.value),
    p2p: inputs.p2p.checked,
    autoconnect: autoconnectOf(inputs.autoconnect.value.trim()),
    http_timeout: inputs.httpTimeout.value.trim() === '' ? null : wholeNumberOr(inputs.httpTimeout.value.trim()),
    listen: listen.values().map(listenOf),
    services: services.values(),
    'pkcs11-modules': lines(inputs.pkcs11Modules.value),
    loggers: loggersOf(inputs.loggers.value),
  });
  return { element, read };
}

export const configScreen = {
  name: 'config',
  title: 'Configuration',
  mount(container) {
    const outcome = messageLine();
    const formSlot = h('div');
    let form;
    const load = async () => {
      form = configForm(await getJson('/config'));
      formSlot.replaceChildren(form.element);
      save.disabled = false;
    };
    // Nothing to save until a configuration was loaded.
    const save = h('button', { type: 'submit', class: 'primary', disabled: true }, 'Save');
    container.append(
      h('p', { class: 'note' }, 'Saved changes apply at once, except listen, tls and database_cache_size: those take effect when the node next starts.'),
      h('form', {
        onsubmit: (event) => {
          event.preventDefault();
          busy(save, async () => {
            try {
              await sendJson('PUT', '/config', form.read());
              await load();
              outcome.ok('Saved.');
            } catch (err) {
              outcome.error(err);
            }
          });
        },
      }, formSlot, h('div', { class: 'actions' }, save,
        h('button', { type: 'button', onclick: () => load().then(outcome.clear, outcome.error) }, 'Reload')), outcome.element));
    load().catch(outcome.error);
  },
};
