// An editable list of objects as table rows, one input (or select) per member, with buttons to
// add and remove rows: the configuration's `listen` and `services`.

import { h } from './dom.js';

/**
 * `columns`: [{key, label, options?}] (options make a select); `rows`: objects whose members
 * fill the inputs. `values()` answers one object of strings per row, in order.
 */
export function rowsEditor(name, columns, rows) {
  const body = h('tbody');
  const addRow = (row = {}) => {
    const inputs = columns.map(({ key, label, options }) => options
      ? h('select', { 'aria-label': label, dataset: { key } }, options.map((o) => h('option', { selected: row[key] === o }, o)))
      : h('input', { 'aria-label': label, dataset: { key }, value: row[key] === undefined ? '' : String(row[key]) }));
    const tr = h('tr', {}, inputs.map((input) => h('td', {}, input)),
      h('td', {}, h('button', { type: 'button', class: 'small', onclick: () => tr.remove() }, 'Remove')));
    body.append(tr);
  };
  rows.forEach((row) => addRow(row));
  return {
    element: h('div', { class: 'rows-editor', dataset: { rows: name } },
      h('table', {}, h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c.label)), h('th'))), body),
      h('button', { type: 'button', class: 'small', onclick: () => addRow() }, 'Add')),
    values: () => [...body.rows].map((tr) =>
      Object.fromEntries([...tr.querySelectorAll('[data-key]')].map((input) => [input.dataset.key, input.value.trim()]))),
  };
}
