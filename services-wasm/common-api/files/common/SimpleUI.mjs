// SimpleUI.mjs: the default page of a service under development (docs/serving.md §4.4). It lists the
// service's actions from /action_templates; for each, a person edits the JSON arguments, names
// the sender and optionally a private key, and pushes the action (signed by common-lib.js).

import { getJson, signAndPushTransaction } from './common-lib.js';

const service = location.hostname.split('.')[0];

/** Actions the chain calls on a service (serving HTTP), which no person pushes. */
const SYSTEM_CALLED = new Set(['serveSys']);

function element(tag, attributes = {}, ...children) {
  const e = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) e.setAttribute(name, value);
  for (const child of children) e.append(child);
  return e;
}

function actionForm(name, template, account) {
  const args = element('textarea', { rows: '4', cols: '70', 'data-action': name, 'aria-label': `${name} arguments` });
  args.value = JSON.stringify(template, null, 2);
  const button = element('button', { type: 'button', 'data-push': name }, 'Push');
  const result = element('pre', { 'data-result': name });
  button.addEventListener('click', async () => {
    result.textContent = 'pushing…';
    try {
      const data = JSON.parse(args.value);
      const key = account.key.value.trim();
      const trace = await signAndPushTransaction(null, {
        actions: [{ sender: account.sender.value.trim(), service, method: name, data }],
      }, key ? [key] : [], 'applied');
      result.textContent = `ok\n${JSON.stringify(trace.actionTraces?.[0]?.innerTraces?.length ?? 0)} inner traces`;
      result.dataset.status = 'ok';
    } catch (err) {
      result.textContent = `error: ${err.message}`;
      result.dataset.status = 'error';
    }
  });
  return element('section', { class: 'action' }, element('h3', {}, name), args, element('br'), button, result);
}

async function main() {
  const root = document.getElementById('root') ?? document.body.appendChild(element('div', { id: 'root' }));
  root.replaceChildren(element('h1', {}, service));
  let templates;
  try {
    templates = await getJson('/action_templates');
  } catch (err) {
    root.append(element('p', {}, `cannot list the actions of ${service}: ${err.message}`));
    return;
  }
  const sender = element('input', { id: 'sender', size: '12', placeholder: 'account' });
  const key = element('textarea', { id: 'key', rows: '3', cols: '70', placeholder: 'private key (PVT_K1_…, PVT_R1_… or PKCS#8 PEM); empty for unsigned' });
  root.append(
    element('p', {}, element('label', { for: 'sender' }, 'Sender '), sender),
    element('p', {}, element('label', { for: 'key' }, 'Private key'), element('br'), key),
  );
  for (const [name, template] of Object.entries(templates)) {
    if (!SYSTEM_CALLED.has(name)) root.append(actionForm(name, template, { sender, key }));
  }
  root.dataset.ready = 'true';
}

main();
