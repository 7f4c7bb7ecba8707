// Runs one chaos schedule on real node processes and checks it (docs/p2p.md "Chaos runs"):
// the producers start and agree, transactions are pushed with wait_for=final throughout, the
// faults come and go as the schedule says (each step printed as it is taken), then the network
// heals. Checked: no two nodes ever hold different irreversible blocks at one height (watched
// throughout and read again at the end), every transaction acknowledged final is on every node,
// and within a bound of the heal every node makes a block irreversible past the highest one any
// node had then.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { livenessBoundMs } from '../../../runtime/network/consensus/liveness-bound.js';
import { waitUntil } from '../node-network.js';
import { headerOf, metricOf, type HeadHeader } from '../producer-network.js';
import { Random } from '../random.js';
import { ChaosNetwork, type ChaosNode } from './chaos-network.js';
import { FinalPushes } from './final-pushes.js';
import { IrreversibleWatch } from './irreversible-watch.js';
import { linkState, type ResolvedFault } from './link-faults.js';
import type { ChaosSchedule, Fault } from './schedule.js';

/** Concurrent pushers. */
const PUSHERS = 3;
const SAMPLE_MS = 500;
/** A peer dial's handshake timeout (runtime/network/links/peer-links.ts): a dial whose packets were lost gives up after it. */
const HANDSHAKE_MS = 10_000;
/** The most a lost link waits to be redialled: ten times PRODUCER_ENV's TSIBASE_P2P_REDIAL_MS. */
const MAX_REDIAL_MS = 2_000;
/** The node processes share the machine's cores with each other and with the test. */
const MACHINE_ALLOWANCE_MS = 10_000;
/** How long a push's transaction lives (ChainClient's default expiration). */
const TRANSACTION_LIFE_MS = 10_000;

export interface ScheduleResult {
  readonly seed: number;
  readonly violations: readonly string[];
  readonly finalTransactions: number;
  /** From the heal to every node past the highest irreversible block at the heal. */
  readonly recoveredMs: number | undefined;
  readonly boundMs: number;
}

export function describeSchedule(schedule: ChaosSchedule): string {
  const links = schedule.links.map(([a, b]) => `p${a}->p${b}`).join(' ');
  return `seed ${schedule.seed}: ${schedule.algorithm.toUpperCase()}, ${schedule.producers} producers, links ${links}, ${schedule.blockMs} ms slots, ${schedule.faults.length} faults over ${schedule.healAt / 1000} s`;
}

const linkName = (schedule: ChaosSchedule, i: number) => `p${schedule.links[i]![0]}<->p${schedule.links[i]![1]}`;

function describeFault(schedule: ChaosSchedule, fault: ResolvedFault, leader: string): string {
  switch (fault.kind) {
    case 'isolate':
      return `isolate p${fault.node}${leader} (${fault.via === 'kernel' ? 'kernel loses its packets both ways' : 'proxies refuse and cut its links'})`;
    case 'split': {
      const other = schedule.links.flat().filter((n, i, all) => all.indexOf(n) === i && !fault.side.includes(n)).sort();
      return `split ${fault.side.map((n) => `p${n}`).join(',')}${leader} | ${other.map((n) => `p${n}`).join(',')} (${fault.via === 'kernel' ? 'kernel loses packets across' : 'proxies refuse and cut across'})`;
    }
    case 'one-way': {
      const [a, b] = schedule.links[fault.link]!;
      const [from, to] = fault.way === 'forward' ? [a, b] : [b, a];
      return `one-way p${from}->p${to} on ${linkName(schedule, fault.link)} (${fault.via === 'kernel' ? `kernel loses p${from}'s packets` : 'proxy stops reading that way'})`;
    }
    case 'delay':
      return `delay ${linkName(schedule, fault.link)} by ${fault.forwardMs} ms p${schedule.links[fault.link]![0]}->p${schedule.links[fault.link]![1]}, ${fault.backwardMs} ms back`;
    case 'stall':
      return `stall ${linkName(schedule, fault.link)} (proxy reads neither way)`;
    case 'cut':
      return `cut ${linkName(schedule, fault.link)} (proxy resets its connections)`;
  }
}

/** The best head any node holds: the highest term, then the highest number. */
async function bestHead(nodes: readonly ChaosNode[]): Promise<HeadHeader> {
  const heads = await Promise.all(nodes.map(headerOf));
  return heads.reduce((a, b) => (b.term > a.term || (b.term === a.term && b.blockNum > a.blockNum) ? b : a));
}

/** A fault's target settled now: the leader named, a split's side drawn around it. */
async function resolve(network: ChaosNetwork, fault: Fault): Promise<{ resolved: ResolvedFault; leader: string }> {
  const leaderIndex = async () => {
    const head = await bestHead(network.nodes);
    return network.nodes.find((n) => n.producer === head.producer)?.index ?? 0;
  };
  if (fault.kind === 'isolate' && fault.node === 'leader') {
    return { resolved: { kind: 'isolate', node: await leaderIndex(), via: fault.via }, leader: ' (the leader)' };
  }
  if (fault.kind === 'split' && fault.withLeader !== undefined) {
    const leader = await leaderIndex();
    const side = [leader, ...fault.side.filter((n) => n !== leader).slice(0, fault.withLeader)].sort();
    return { resolved: { kind: 'split', side, via: fault.via }, leader: ` (p${leader} leads)` };
  }
  return { resolved: fault as ResolvedFault, leader: '' };
}

const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

/**
 * Runs `schedule` in a temporary directory (kept, with each node's log, when a check fails), the
 * chain booted from `bundle`; `log` gets each line as it happens.
 */
export async function runSchedule(schedule: ChaosSchedule, bundle: Uint8Array, log: (line: string) => void): Promise<ScheduleResult> {
  log(describeSchedule(schedule));
  const dir = mkdtempSync(join(tmpdir(), `tsibase-chaos-${schedule.seed}-`));
  const started = Date.now();
  let network: ChaosNetwork | undefined;
  let t0 = Date.now();
  const clock = () => `t=${((Date.now() - t0) / 1000).toFixed(2)}s`;
  const violations: string[] = [];
  let watch: IrreversibleWatch | undefined;
  let pushes: FinalPushes | undefined;
  let sampling = true;
  let sampler: Promise<void> | undefined;
  try {
    network = await ChaosNetwork.start(dir, schedule, bundle);
    const nodes = network.nodes;
    log(`  ${nodes.map((n) => `${n.label}=${n.producer}`).join(' ')} up and producing in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const first = await bestHead(nodes);
    await waitUntil('blocks irreversible under the new set', async () => (await headerOf(nodes[0]!)).commitNum > first.blockNum, 60_000);

    t0 = Date.now();
    const ownWatch = new IrreversibleWatch(nodes, clock);
    watch = ownWatch;
    sampler = (async () => {
      while (sampling) {
        await ownWatch.sample().catch((err: Error) => log(`  ${clock()} sample failed: ${err.message}`));
        await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      }
    })();
    const ownPushes = new FinalPushes(nodes, new Random(schedule.seed));
    pushes = ownPushes;
    ownPushes.start(PUSHERS);

    // Each fault starts, and (but a cut) ends; the links follow the faults active at each step.
    const steps = schedule.faults.flatMap((fault, i) => [
      { at: fault.at, fault: i, start: true },
      ...(fault.kind === 'cut' ? [] : [{ at: fault.at + fault.duration, fault: i, start: false }]),
    ]).sort((a, b) => a.at - b.at || Number(a.start) - Number(b.start));
    const active = new Map<number, { resolved: ResolvedFault; text: string }>();
    for (const step of steps) {
      await sleepUntil(t0 + step.at);
      const fault = schedule.faults[step.fault]!;
      if (step.start) {
        const { resolved, leader } = await resolve(network, fault);
        const text = describeFault(schedule, resolved, leader);
        log(`  ${clock()} ${text}${fault.kind === 'cut' ? '' : ` for ${(fault.duration / 1000).toFixed(2)} s`}`);
        if (resolved.kind === 'cut') {
          network.cut(resolved.link);
          continue;
        }
        active.set(step.fault, { resolved, text });
      } else {
        log(`  ${clock()} end: ${active.get(step.fault)!.text}`);
        active.delete(step.fault);
      }
      network.apply(linkState(schedule.links, [...active.values()].map((a) => a.resolved)));
    }
    await sleepUntil(t0 + schedule.healAt);
    network.heal();
    const healedAt = Date.now();
    await ownWatch.sample();
    const highest = Math.max(...ownWatch.irreversibleBlocks);
    const timeouts = await Promise.all(nodes.map((n) => metricOf(n, 'tsibase_consensus_timeout_ms')));
    const kernelMs = Math.max(0, ...schedule.faults.filter((f) => 'via' in f && f.via === 'kernel').map((f) => f.duration));
    const linksBackMs = Math.max(HANDSHAKE_MS, kernelMs) + MAX_REDIAL_MS;
    const boundMs = livenessBoundMs({ algorithm: schedule.algorithm, sets: [schedule.producers], largestTimeoutMs: Math.max(...timeouts), blockIntervalMs: schedule.blockMs })
      + linksBackMs + MACHINE_ALLOWANCE_MS;
    log(`  ${clock()} heal: irreversible ${ownWatch.irreversibleBlocks.join(', ')}; consensus timeouts ${timeouts.join(', ')} ms; bound ${(boundMs / 1000).toFixed(1)} s`);

    let recoveredMs: number | undefined;
    try {
      await waitUntil(`every node irreversible past ${highest}`, async () => {
        await ownWatch.sample();
        return ownWatch.irreversibleBlocks.every((n) => n > highest);
      }, boundMs);
      recoveredMs = Date.now() - healedAt;
      log(`  ${clock()} every node irreversible past ${highest} ${(recoveredMs / 1000).toFixed(2)} s after the heal`);
    } catch {
      const heads = await Promise.all(nodes.map(async (n) => `${n.label} head ${JSON.stringify(await headerOf(n))}`));
      violations.push(`${clock()} no progress within ${(boundMs / 1000).toFixed(1)} s of the heal: irreversible ${ownWatch.irreversibleBlocks.join(', ')} (was ${highest}); ${heads.join('; ')}`);
    }

    const unanswered = await ownPushes.stop(TRANSACTION_LIFE_MS + boundMs);
    if (unanswered.length > 0) violations.push(`${clock()} pushes unanswered ${((TRANSACTION_LIFE_MS + boundMs) / 1000).toFixed(1)} s after they stopped: ${unanswered.join(', ')}`);
    // Every node comes up to the highest irreversible block, which holds every push answered final.
    const last = Math.max(...ownWatch.irreversibleBlocks);
    await waitUntil(`every node irreversible at ${last}`, async () => {
      await ownWatch.sample();
      return ownWatch.irreversibleBlocks.every((n) => n >= last);
    }, boundMs).catch(() => violations.push(`${clock()} not every node reached irreversible block ${last}: ${ownWatch.irreversibleBlocks.join(', ')}`));
    for (const node of nodes) {
      const missing = await ownPushes.missingOn(node);
      if (missing.length > 0) violations.push(`${node.label} lacks ${missing.length} of ${ownPushes.final.length} transactions acknowledged final: ${missing.slice(0, 10).join(', ')}`);
    }
    sampling = false;
    await sampler;
    await ownWatch.finalCheck();
    violations.push(...ownWatch.violations);
    log(`  ${clock()} ${ownPushes.final.length} transactions final, ${ownPushes.failures} not; irreversible ${ownWatch.irreversibleBlocks.join(', ')}`);
    return { seed: schedule.seed, violations, finalTransactions: ownPushes.final.length, recoveredMs, boundMs };
  } catch (err) {
    violations.push(...(watch?.violations ?? []), `${clock()} the run failed: ${(err as Error).message}`);
    return { seed: schedule.seed, violations, finalTransactions: 0, recoveredMs: undefined, boundMs: 0 };
  } finally {
    sampling = false;
    await sampler?.catch(() => undefined);
    // Pushes still under way fail once the nodes stop.
    void pushes?.stop(0);
    if (violations.length > 0 && network) {
      for (const node of network.nodes) writeFileSync(join(dir, `${node.label}.log`), node.output());
    }
    await network?.stop();
    if (violations.length === 0) rmSync(dir, { recursive: true, force: true });
    else log(`  node directories and logs kept in ${dir}`);
    for (const v of violations) log(`  VIOLATION ${v}`);
    log(`  seed ${schedule.seed}: ${violations.length === 0 ? 'ok' : `${violations.length} violation(s)`} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}
