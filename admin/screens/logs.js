// Logs: the node's live log over the admin websocket (docs/http.md §8). The node sends nothing until
// it gets a configuration frame ({filter}); records then come as JSON, one per message. A filter
// the node cannot parse closes the socket with 1008 and the error as reason: it is shown, and
// applying a corrected filter connects again.

import { h, messageLine } from '../dom.js';

/** Rows kept in the table; older ones are dropped. */
const MAX_RECORDS = 1000;
const DEFAULT_FILTER = 'Severity >= info';

function recordOf(data) {
  try {
    return JSON.parse(data);
  } catch {
    return { Message: data };
  }
}

/** One table row: time (UTC, milliseconds), severity, channel, message. */
function recordRow(record) {
  const time = record.TimeStamp ?? '';
  return h('tr', { class: record.Severity ? `severity-${record.Severity}` : undefined },
    h('td', { title: time }, time.slice(11, 23)), h('td', {}, record.Severity ?? ''), h('td', {}, record.Channel ?? ''),
    h('td', { class: 'log-message' }, record.Message ?? ''));
}

export const logsScreen = {
  name: 'logs',
  title: 'Logs',
  mount(container) {
    const filter = h('input', { name: 'filter', value: DEFAULT_FILTER, spellcheck: 'false', placeholder: 'e.g. Channel = http and Response.Status >= 400' });
    const state = h('span', { class: 'socket-state', dataset: { socketState: 'closed' } }, 'not connected');
    const outcome = messageLine();
    const rows = h('tbody', { dataset: { logRecords: '' } });
    const scroller = h('div', { class: 'log' }, h('table', {},
      h('thead', {}, h('tr', {}, ['time (UTC)', 'severity', 'channel', 'message'].map((c) => h('th', { scope: 'col' }, c)))), rows));
    let socket;
    let stopped = false;

    const setState = (name, text) => {
      state.dataset.socketState = name;
      state.textContent = text;
    };
    const configuration = () => JSON.stringify({ filter: filter.value.trim() || undefined });

    const append = (record) => {
      const atBottom = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 4;
      rows.append(recordRow(record));
      while (rows.rows.length > MAX_RECORDS) rows.firstElementChild.remove();
      if (atBottom) scroller.scrollTop = scroller.scrollHeight;
    };

    const connect = () => {
      const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/native/admin/log`);
      socket = ws;
      setState('connecting', 'connecting…');
      ws.onopen = () => {
        setState('open', 'receiving');
        ws.send(configuration());
      };
      ws.onmessage = (event) => append(recordOf(event.data));
      ws.onclose = (event) => {
        if (stopped || socket !== ws) return;
        setState('closed', 'not connected');
        // 1008: the node refused the configuration; 1012: it restarts; 1001: it stops.
        if (event.code === 1008) outcome.error(`The node refused the filter: ${event.reason} (1008). Correct it and apply again.`);
        else outcome.error(`The log connection closed${event.reason ? `: ${event.reason}` : ''} (${event.code}). Apply to connect again.`);
      };
    };

    /** Sends the filter on the open socket, or connects with it. */
    const apply = () => {
      outcome.clear();
      if (socket?.readyState === WebSocket.OPEN) socket.send(configuration());
      else if (socket?.readyState !== WebSocket.CONNECTING) connect();
    };

    container.append(
      h('form', { class: 'inline', onsubmit: (event) => { event.preventDefault(); apply(); } },
        h('label', {}, 'Filter ', filter), h('button', { type: 'submit', class: 'primary' }, 'Apply'),
        h('button', { type: 'button', onclick: () => rows.replaceChildren() }, 'Clear'), state),
      h('p', { class: 'note' }, 'Filters compare attributes: ', h('code', {}, 'Severity >= info'), ', ',
        h('code', {}, 'Channel = http and Response.Status >= 400'), ', ', h('code', {}, 'not Channel = block'), '. HTTP requests are logged at debug.'),
      outcome.element, scroller);
    connect();
    return () => {
      stopped = true;
      socket.close(1000);
    };
  },
};
