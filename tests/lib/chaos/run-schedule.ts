// Runs one chaos schedule on real node processes and checks it (docs/p2p.md "Chaos runs"): the
// producers start and agree, transactions are pushed with wait_for=final throughout, the faults
// come and go as the schedule says (each step printed as it is taken), then the network heals.
// Checked: no two nodes ever hold different irreversible blocks at one height (watched throughout
// and read again at the end); within a bound of the heal every node makes a block irreversible
// past the highest one any node had then; every push answers; every transaction acknowledged
// final is on every node.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '../node-network.js';
import { headerOf, metricOf } from '../producer-network.js';
import { Random } from '../random.js';
import { ChaosNetwork, type ChaosNetworkOptions } from './chaos-network.js';
import { bestHead, takeFaultSteps } from './fault-steps.js';
import { FinalPushes } from './final-pushes.js';
import { IrreversibleWatch } from './irreversible-watch.js';
import { recoveryBoundMs } from './recovery-bound.js';
import { withinDeadline } from './deadline.js';
import type { ChaosSchedule } from './schedule.js';

/** Concurrent pushers. */
const PUSHERS = 3;
const SAMPLE_MS = 500;
/** How long a push's transaction lives (ChainClient's default expiration). */
const TRANSACTION_LIFE_MS = 10_000;

export interface ScheduleResult {
  readonly seed: number;
  readonly violations: readonly string[];
  readonly finalTransactions: number;
  /** From the heal to every node past the highest irreversible block at the heal. */
  readonly recoveredMs: number | undefined;
}

export function describeSchedule(schedule: ChaosSchedule): string {
  const links = schedule.links.map(([a, b]) => `p${a}->p${b}`).join(' ');
  return `seed ${schedule.seed}: ${schedule.algorithm.toUpperCase()}, ${schedule.producers} producers, links ${links}, ${schedule.blockMs} ms slots, ${schedule.faults.length} faults over ${schedule.healAt / 1000} s`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

class ScheduleRun {
  readonly violations: string[] = [];
  private readonly dir: string;
  private readonly started = Date.now();
  /** When the faults began (the steps' time 0). */
  private t0 = Date.now();
  private network: ChaosNetwork | undefined;
  private watch: IrreversibleWatch | undefined;
  private pushes: FinalPushes | undefined;
  private sampler: Promise<void> | undefined;
  private sampling = false;

  constructor(private readonly schedule: ChaosSchedule, private readonly bundle: Uint8Array, private readonly log: (line: string) => void, private readonly options: ChaosNetworkOptions) {
    this.dir = mkdtempSync(join(tmpdir(), `tsibase-chaos-${schedule.seed}-`));
  }

  readonly clock = () => `t=${((Date.now() - this.t0) / 1000).toFixed(2)}s`;

  async run(): Promise<ScheduleResult> {
    this.log(describeSchedule(this.schedule));
    let recoveredMs: number | undefined;
    try {
      const network = await this.start();
      await takeFaultSteps(network, this.t0, this.log, this.clock);
      recoveredMs = await this.heal(network);
      await this.checkFinalTransactions();
    } catch (err) {
      this.violations.push(`${this.clock()} the run failed: ${(err as Error).message}`);
    } finally {
      await this.end();
    }
    return { seed: this.schedule.seed, violations: this.violations, finalTransactions: this.pushes?.final.length ?? 0, recoveredMs };
  }

  /** The network up and committing, the watch and the pushes running. */
  private async start(): Promise<ChaosNetwork> {
    const network = await ChaosNetwork.start(this.dir, this.schedule, this.bundle, this.options);
    this.network = network;
    const { nodes } = network;
    this.log(`  ${nodes.map((n) => `${n.label}=${n.producer}`).join(' ')} up and producing in ${seconds(Date.now() - this.started)}`);
    const first = await bestHead(nodes);
    await waitUntil('blocks irreversible under the new set', async () => (await withinDeadline('p0\'s head', headerOf(nodes[0]!))).commitNum > first.blockNum, 60_000);
    this.t0 = Date.now();
    const watch = new IrreversibleWatch(nodes, this.clock);
    this.watch = watch;
    this.sampling = true;
    this.sampler = (async () => {
      while (this.sampling) {
        await watch.sample().catch((err: Error) => this.log(`  ${this.clock()} sample failed: ${err.message}`));
        await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      }
    })();
    this.pushes = new FinalPushes(nodes, new Random(this.schedule.seed));
    this.pushes.start(PUSHERS);
    return network;
  }

  /** Heals the links; the time until every node is irreversible past the highest block then, if within the bound. */
  private async heal(network: ChaosNetwork): Promise<number | undefined> {
    const watch = this.watch!;
    network.heal();
    const healedAt = Date.now();
    await watch.sample();
    const atHeal = [...watch.irreversibleBlocks];
    const highest = Math.max(...atHeal);
    const timeouts = await Promise.all(network.nodes.map((n) => withinDeadline(`${n.label}'s metrics`, metricOf(n, 'tsibase_consensus_timeout_ms'))));
    if (!timeouts.every(Number.isFinite)) throw new Error(`the nodes report no consensus timeout (tsibase_consensus_timeout_ms): ${timeouts.join(', ')}`);
    const boundMs = recoveryBoundMs(this.schedule, timeouts);
    this.log(`  ${this.clock()} heal: irreversible ${atHeal.join(', ')}; consensus timeouts ${timeouts.join(', ')} ms; bound ${seconds(boundMs)}`);
    let recoveredMs: number | undefined;
    try {
      await waitUntil(`every node irreversible past ${highest}`, async () => {
        await watch.sample();
        return watch.irreversibleBlocks.every((n) => n > highest);
      }, boundMs);
      recoveredMs = Date.now() - healedAt;
      this.log(`  ${this.clock()} every node irreversible past ${highest}, ${seconds(recoveredMs)} after the heal`);
    } catch {
      const heads = await Promise.all(network.nodes.map(async (n) => `${n.label} ${await withinDeadline(`${n.label}'s head`, headerOf(n)).then(JSON.stringify, (err: Error) => err.message)}`));
      this.violations.push(`${this.clock()} no progress within ${seconds(boundMs)} of the heal: irreversible ${watch.irreversibleBlocks.join(', ')}, not all past ${highest}; heads ${heads.join(', ')}`);
    }
    // Pushes under way answer within their transaction's life and that bound.
    const unanswered = await this.pushes!.stop(TRANSACTION_LIFE_MS + boundMs);
    if (unanswered.length > 0) this.violations.push(`${this.clock()} pushes unanswered ${seconds(TRANSACTION_LIFE_MS + boundMs)} after the pushing stopped: ${unanswered.join(', ')}`);
    return recoveredMs;
  }

  /** Every node up to the highest irreversible block (which holds every push answered final), then each holds them all. */
  private async checkFinalTransactions(): Promise<void> {
    const watch = this.watch!;
    const pushes = this.pushes!;
    const last = Math.max(...watch.irreversibleBlocks);
    await waitUntil(`every node irreversible at ${last}`, async () => {
      await watch.sample();
      return watch.irreversibleBlocks.every((n) => n >= last);
    }, 60_000).catch(() => this.violations.push(`${this.clock()} not every node reached irreversible block ${last}: ${watch.irreversibleBlocks.join(', ')}`));
    for (const node of this.network!.nodes) {
      const missing = await withinDeadline(`${node.label}'s accounts`, pushes.missingOn(node));
      if (missing.length > 0) this.violations.push(`${node.label} lacks ${missing.length} of the ${pushes.final.length} transactions acknowledged final: ${missing.slice(0, 10).join(', ')}`);
    }
    this.log(`  ${this.clock()} ${pushes.final.length} transactions final, ${pushes.failures} not; irreversible ${watch.irreversibleBlocks.join(', ')}`);
  }

  /** The final read of every irreversible block, then everything stopped and removed (the directory kept on a violation). */
  private async end(): Promise<void> {
    this.sampling = false;
    await this.sampler?.catch(() => undefined);
    // Pushes still under way fail once the nodes stop.
    void this.pushes?.stop(0);
    if (this.watch) {
      await this.watch.finalCheck().catch((err: Error) => this.violations.push(`${this.clock()} the final read failed: ${err.message}`));
      this.violations.push(...this.watch.violations);
    }
    if (this.violations.length > 0) {
      for (const node of this.network?.nodes ?? []) writeFileSync(join(this.dir, `${node.label}.log`), node.output());
    }
    await this.network?.stop();
    if (this.violations.length === 0) rmSync(this.dir, { recursive: true, force: true });
    else this.log(`  node directories and logs kept in ${this.dir}`);
    for (const v of this.violations) this.log(`  VIOLATION ${v}`);
    this.log(`  seed ${this.schedule.seed}: ${this.violations.length === 0 ? 'ok' : `${this.violations.length} violation(s)`} (${seconds(Date.now() - this.started)})`);
  }
}

/**
 * Runs `schedule` in a temporary directory (kept, with each node's log, when a check fails), the
 * chain booted from `bundle`; `log` gets each line as it happens.
 */
export function runSchedule(schedule: ChaosSchedule, bundle: Uint8Array, log: (line: string) => void, options: ChaosNetworkOptions = {}): Promise<ScheduleResult> {
  return new ScheduleRun(schedule, bundle, log, options).run();
}
