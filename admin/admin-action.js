// A button's POST to the admin API: the button is disabled while it runs, the outcome is shown,
// and the screen's list is loaded again (it changed, or shows why not).

import { sendJson } from './api.js';
import { busy } from './dom.js';

/** `act(button, what, path, body)` for a screen with the message line `outcome` and list loader `reload`. */
export function adminAction(outcome, reload) {
  return (button, what, path, body) => busy(button, async () => {
    try {
      await sendJson('POST', path, body);
      outcome.ok(what);
    } catch (err) {
      outcome.error(err);
    }
    await reload().catch(outcome.error);
  });
}
