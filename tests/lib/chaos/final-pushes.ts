// Transactions pushed with wait_for=final while a schedule runs, a few at a time, each to a node
// drawn from the schedule's seed: each creates an account, so that whether a node holds it is one
// query. A push answered final counts as acknowledged final; one that fails or whose node cannot
// answer counts as nothing (the client was told nothing), however it ends.
import { systemAction } from '../../../host-api/boot/system-actions.js';
import type { Random } from '../random.js';
import { clientOf } from '../producer-network.js';
import type { ChaosNode } from './chaos-network.js';
import { within } from './deadline.js';

/** Names queried per request. */
const BATCH = 50;

/** An account name for the n-th push (letters only: a-z as digits). */
function accountName(n: number): string {
  let name = '';
  for (let rest = n; ; rest = Math.floor(rest / 26)) {
    name = String.fromCharCode(97 + (rest % 26)) + name;
    if (rest < 26) break;
  }
  return `chaos${name}`;
}

export class FinalPushes {
  /** The accounts whose push answered final, with the node that answered. */
  readonly final: { readonly name: string; readonly node: string }[] = [];
  private failed = 0;
  private next = 0;
  private running = false;
  private loops: Promise<void>[] = [];
  /** What is under way, by push: the account and the node it went to. */
  private readonly pending = new Map<Promise<void>, string>();

  constructor(private readonly nodes: readonly ChaosNode[], private readonly random: Random) {}

  /** Starts `pushers` loops, each pushing one transaction at a time. */
  start(pushers: number): void {
    this.running = true;
    this.loops = [...Array(pushers)].map(() => this.loop());
  }

  /** Pushes answered otherwise than final (failed, refused, unreachable). */
  get failures(): number {
    return this.failed;
  }

  /**
   * Stops pushing and waits up to `waitMs` for the pushes under way to answer; the ones that
   * did not (named by their node), which are left to answer or fail on their own.
   */
  async stop(waitMs: number): Promise<string[]> {
    this.running = false;
    await within(waitMs, 'the pushes under way', Promise.all(this.loops)).catch(() => undefined);
    return [...this.pending.values()];
  }

  /** The acknowledged-final accounts `node` does not hold. */
  async missingOn(node: ChaosNode): Promise<string[]> {
    const missing: string[] = [];
    for (let i = 0; i < this.final.length; i += BATCH) {
      const names = this.final.slice(i, i + BATCH).map((f) => f.name);
      const query = `{ ${names.map((name, j) => `a${j}: getAccount(account: "${name}") { accountNum }`).join(' ')} }`;
      const answer = await clientOf(node).graphql('accounts', query) as Record<string, unknown>;
      names.forEach((name, j) => answer[`a${j}`] == null && missing.push(name));
    }
    return missing;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const node = this.random.pick(this.nodes);
      const name = accountName(this.next++);
      const push = this.push(node, name);
      this.pending.set(push, `${name} on ${node.label}`);
      await push;
      this.pending.delete(push);
    }
  }

  private async push(node: ChaosNode, name: string): Promise<void> {
    try {
      const pushed = await clientOf(node).push([systemAction('root', 'accounts.newAccount', { name, authService: 'auth-any', requireMatch: true })], { waitFor: 'final' });
      if (pushed.trace.error === null) this.final.push({ name, node: node.label });
      else this.failed++;
    } catch {
      this.failed++;
      // A refusal answers at once (no producer reachable): not a busy loop.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
