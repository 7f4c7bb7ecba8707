// Building the page: one element factory and the pieces every screen uses.

/**
 * An HTML element: `props` sets attributes, except `on<event>` (listeners), `dataset` and
 * `value`, `checked`, `disabled` (properties); children are nodes or text, null/false skipped.
 */
export function h(tag, props = {}, ...children) {
  return build(document.createElement(tag), props, children);
}

/** An SVG element, as `h` makes HTML ones. */
export function svg(tag, props = {}, ...children) {
  return build(document.createElementNS('http://www.w3.org/2000/svg', tag), props, children);
}

const PROPERTIES = new Set(['value', 'checked', 'disabled']);

function build(element, props, children) {
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (PROPERTIES.has(name)) element[name] = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return element;
}

/**
 * A line for the outcome of what the user did: `error(err)` shows what went wrong (an
 * HttpError's message is the node's own text), `ok(text)` a success; tests find it by
 * `[data-kind]`.
 */
export function messageLine() {
  const element = h('p', { class: 'message', role: 'status' });
  const show = (kind, text) => {
    element.dataset.kind = kind;
    element.textContent = text;
  };
  return {
    element,
    ok: (text) => show('ok', text),
    error: (err) => show('error', err instanceof Error ? err.message : String(err)),
    clear: () => {
      delete element.dataset.kind;
      element.textContent = '';
    },
  };
}

/** A table with a header row; `rows` are arrays of cells (nodes or text). */
export function table(headings, rows, props = {}) {
  return h('table', props,
    h('thead', {}, h('tr', {}, headings.map((heading) => h('th', { scope: 'col' }, heading)))),
    h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((cell) => h('td', {}, cell))))));
}

/** `table(headings, rows, props)`, or the note `empty` when there are no rows. */
export function tableOrNote(empty, headings, rows, props) {
  return rows.length === 0 ? h('p', { class: 'empty' }, empty) : table(headings, rows, props);
}

/** A labelled form control, with an optional hint under it. */
export function field(label, control, hint) {
  return h('label', { class: 'field' }, h('span', { class: 'label' }, label), control, hint && h('small', {}, hint));
}

/** Runs `action` with `button` disabled, so a slow request cannot be sent twice. */
export async function busy(button, action) {
  button.disabled = true;
  try {
    return await action();
  } finally {
    button.disabled = false;
  }
}

/** A list of steps; `step(text)` adds one, marked running, and answers a handle to finish it. */
export function progressList() {
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
