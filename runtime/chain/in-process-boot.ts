import { setImmediate as nextTurn } from 'node:timers/promises';
import { bootTransactions, runBoot, type BootOptions, type BootProgress, type Bundle } from '../../host-api/index.js';
import { sha256 } from '../crypto/sha256.js';
import type { TransactionIntake } from './interface.js';

/**
 * Boots `bundle` on a chain of this process (docs/chain.md §4): push_boot builds block 2, then
 * every later boot transaction is pushed in order. Each step waits for the event loop's next
 * turn, so the process answers (a node's listeners) while a bundle boots. Throws BOOT_FAILED
 * at the first transaction that fails.
 */
export function bootInProcess(chain: TransactionIntake, bundle: Bundle, options: BootOptions, progress?: BootProgress): Promise<void> {
  return runBoot(bootTransactions(bundle, { sha256, ...options }), {
    pushBoot: (body) => nextTurn().then(() => chain.boot(body)),
    push: (t) => nextTurn().then(() => chain.push(t, 'applied')),
  }, progress);
}
