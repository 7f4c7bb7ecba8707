// A schedule's faults carried out on its network, step by step: each fault starts (aimed at the
// leader of the moment, if it says so) and ends at its time; after each step the links are made
// what the faults active then say (link-faults.ts). Every step is printed as it is taken, with the
// time since the faults began, so that a failing seed's run can be read and replayed.
import { headerOf, type HeadHeader } from '../producer-network.js';
import { withinDeadline } from './deadline.js';
import type { ChaosNetwork, ChaosNode } from './chaos-network.js';
import { linkState, type ResolvedFault } from './link-faults.js';
import type { ChaosSchedule, Fault } from './schedule.js';

const linkName = (schedule: ChaosSchedule, i: number) => `p${schedule.links[i]![0]}<->p${schedule.links[i]![1]}`;
const nodeList = (nodes: readonly number[]) => nodes.map((n) => `p${n}`).join(',');

/** A fault in words; `leader` names the leader when the fault was aimed at it. */
export function describeFault(schedule: ChaosSchedule, fault: ResolvedFault, leader = ''): string {
  switch (fault.kind) {
    case 'isolate':
      return `isolate p${fault.node}${leader} (${fault.via === 'kernel' ? 'the kernel loses its packets both ways' : 'proxies refuse and cut its links'})`;
    case 'split': {
      const others = [...Array(schedule.producers).keys()].filter((n) => !fault.side.includes(n));
      return `split ${nodeList(fault.side)}${leader} | ${nodeList(others)} (${fault.via === 'kernel' ? 'the kernel loses packets across' : 'proxies refuse and cut across'})`;
    }
    case 'one-way': {
      const [a, b] = schedule.links[fault.link]!;
      const [from, to] = fault.way === 'forward' ? [a, b] : [b, a];
      return `one-way loss p${from}->p${to} on ${linkName(schedule, fault.link)} (${fault.via === 'kernel' ? `the kernel loses p${from}'s packets` : 'the proxy stops reading that way'})`;
    }
    case 'delay': {
      const [a, b] = schedule.links[fault.link]!;
      return `delay ${linkName(schedule, fault.link)}: ${fault.forwardMs} ms p${a}->p${b}, ${fault.backwardMs} ms p${b}->p${a}`;
    }
    case 'stall':
      return `stall ${linkName(schedule, fault.link)} (the proxy reads neither way)`;
    case 'cut':
      return `cut ${linkName(schedule, fault.link)} (the proxy resets its connections)`;
  }
}

/** The best head any node holds: the highest term, then the highest number. */
export async function bestHead(nodes: readonly ChaosNode[]): Promise<HeadHeader> {
  const heads = await Promise.all(nodes.map((n) => withinDeadline(`${n.label}'s head`, headerOf(n))));
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

const sleepUntil = (at: number) => new Promise((done) => setTimeout(done, Math.max(0, at - Date.now())));

/**
 * Takes the schedule's steps, `t0` being the time the faults began, and returns once the last
 * fault is over and the heal time has come (the links are left as they are: the caller heals).
 */
export async function takeFaultSteps(network: ChaosNetwork, t0: number, log: (line: string) => void, clock: () => string): Promise<void> {
  const { schedule } = network;
  const steps = schedule.faults.flatMap((fault, i) => [
    { at: fault.at, fault: i, start: true },
    ...(fault.kind === 'cut' ? [] : [{ at: fault.at + fault.duration, fault: i, start: false }]),
  ]).sort((a, b) => a.at - b.at || Number(a.start) - Number(b.start));
  const active = new Map<number, { resolved: ResolvedFault; text: string }>();
  for (const step of steps) {
    await sleepUntil(t0 + step.at);
    const fault = schedule.faults[step.fault]!;
    if (!step.start) {
      log(`  ${clock()} end: ${active.get(step.fault)!.text}`);
      active.delete(step.fault);
    } else {
      const { resolved, leader } = await resolve(network, fault);
      const text = describeFault(schedule, resolved, leader);
      log(`  ${clock()} ${text}${fault.kind === 'cut' ? '' : ` for ${(fault.duration / 1000).toFixed(2)} s`}`);
      if (resolved.kind === 'cut') {
        network.cut(resolved.link);
        continue;
      }
      active.set(step.fault, { resolved, text });
    }
    network.apply(linkState(schedule.links, [...active.values()].map((a) => a.resolved)));
  }
  await sleepUntil(t0 + schedule.healAt);
}
