import { TsibaseError } from '../errors.js';
import type { BootTransactions } from './boot-transactions.js';

/** Where a boot goes: a node reached over HTTP, or a chain in this process. */
export interface BootTarget {
  pushBoot(body: Uint8Array): Promise<{ error: string | null }>;
  push(signedTransaction: Uint8Array): Promise<{ error: string | null }>;
}

/** Told after each step of a boot: `applied` of the `total` boot transactions are in (push_boot holds the first three). */
export type BootProgress = (applied: number, total: number) => void;

/** The transactions push_boot carries (docs/bundle.md, "From bundle to boot transactions" 1-3). */
const PUSH_BOOT_TRANSACTIONS = 3;

/** push_boot, then every later boot transaction in order; stops at the first failure (BOOT_FAILED). */
export async function runBoot(boot: BootTransactions, target: BootTarget, progress: BootProgress = () => {}): Promise<void> {
  const total = bootTransactionCount(boot);
  const first = await target.pushBoot(boot.pushBoot);
  if (first.error) throw new TsibaseError('BOOT_FAILED', `push_boot: ${first.error}`);
  progress(PUSH_BOOT_TRANSACTIONS, total);
  for (const [i, t] of boot.later.entries()) {
    const trace = await target.push(t);
    if (trace.error) throw new TsibaseError('BOOT_FAILED', `boot transaction ${i + PUSH_BOOT_TRANSACTIONS + 1}: ${trace.error}`);
    progress(i + PUSH_BOOT_TRANSACTIONS + 1, total);
  }
}

/** How many transactions a boot has in all. */
export function bootTransactionCount(boot: BootTransactions): number {
  return PUSH_BOOT_TRANSACTIONS + boot.later.length;
}
