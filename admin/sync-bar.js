// The block sync as a bar (head block of the best one the peers have shown) and the line the
// node's log writes for it (host-api's syncText, which `tsibase info` prints too).

import { syncText } from '/lib/host-api/http/sync-status.js';
import { h } from './dom.js';

/** `show(sync)` with the `sync` of GET /native/admin/status?sync; `data-state` is syncing or synced. */
export function syncBar() {
  const bar = h('progress', { max: 1, value: 0, 'aria-label': 'blocks synced' });
  const line = h('span', { dataset: { syncText: '' } }, '–');
  const element = h('div', { class: 'sync', dataset: { sync: '', state: 'unknown' } }, bar, line);
  return {
    element,
    show(sync) {
      element.dataset.state = sync.syncing ? 'syncing' : 'synced';
      bar.max = Math.max(1, sync.best);
      bar.value = sync.head;
      line.textContent = syncText(sync);
    },
  };
}
