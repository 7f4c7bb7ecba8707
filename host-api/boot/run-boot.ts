import { TsibaseError } from '../errors.js';
import type { BootTransactions } from './boot-transactions.js';

/** Where a boot goes: a node reached over HTTP, or a chain in this process. */
export interface BootTarget {
  pushBoot(body: Uint8Array): Promise<{ error: string | null }>;
  push(signedTransaction: Uint8Array): Promise<{ error: string | null }>;
}

/** push_boot, then every later boot transaction in order; stops at the first failure (BOOT_FAILED). */
export async function runBoot(boot: BootTransactions, target: BootTarget): Promise<void> {
  const first = await target.pushBoot(boot.pushBoot);
  if (first.error) throw new TsibaseError('BOOT_FAILED', `push_boot: ${first.error}`);
  for (const [i, t] of boot.later.entries()) {
    const trace = await target.push(t);
    if (trace.error) throw new TsibaseError('BOOT_FAILED', `boot transaction ${i + 4}: ${trace.error}`);
  }
}
