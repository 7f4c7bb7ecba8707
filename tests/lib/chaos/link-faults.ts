// What the faults active at one moment make of each link: which nodes' packets the kernel loses
// on it and what its proxy does. Overlapping faults add up (the longest delay, any stall, any
// refusal), so each change of the active set is applied as the difference from the last state.
import { CLEAR_LINK, type LinkConditions } from '../link-proxy.js';
import type { FaultKind } from './schedule.js';

/** A fault with its target resolved: `leader` named, a split's side settled. */
export type ResolvedFault =
  | { readonly kind: 'isolate'; readonly node: number; readonly via: 'kernel' | 'proxy' }
  | { readonly kind: 'split'; readonly side: readonly number[]; readonly via: 'kernel' | 'proxy' }
  | Exclude<FaultKind, { kind: 'isolate' } | { kind: 'split' }>;

export interface LinkState {
  /** `a>b`: what node a sends on its link to b is lost. */
  readonly kernelDrops: ReadonlySet<string>;
  /** By link index. */
  readonly proxies: readonly LinkConditions[];
}

export const dropKey = (from: number, to: number) => `${from}>${to}`;
/** The nodes of a dropKey: [from, to]. */
export const dropEnds = (key: string) => key.split('>').map(Number) as [number, number];

/** The links' state under `active` faults (`cut` is an instant act, not a state). */
export function linkState(links: readonly (readonly [number, number])[], active: readonly ResolvedFault[]): LinkState {
  const kernelDrops = new Set<string>();
  const proxies = links.map(() => ({ delayMs: { ...CLEAR_LINK.delayMs }, stalled: { ...CLEAR_LINK.stalled }, refused: false }));
  /** Link `i` fails both ways, as the fault's `via` says. */
  const fail = (i: number, via: 'kernel' | 'proxy') => {
    const [a, b] = links[i]!;
    if (via === 'proxy') proxies[i]!.refused = true;
    else kernelDrops.add(dropKey(a, b)).add(dropKey(b, a));
  };
  for (const fault of active) {
    switch (fault.kind) {
      case 'isolate':
        links.forEach(([a, b], i) => (a === fault.node || b === fault.node) && fail(i, fault.via));
        break;
      case 'split':
        links.forEach(([a, b], i) => fault.side.includes(a) !== fault.side.includes(b) && fail(i, fault.via));
        break;
      case 'one-way': {
        const [a, b] = links[fault.link]!;
        if (fault.via === 'proxy') proxies[fault.link]!.stalled[fault.way] = true;
        else kernelDrops.add(fault.way === 'forward' ? dropKey(a, b) : dropKey(b, a));
        break;
      }
      case 'delay': {
        const delay = proxies[fault.link]!.delayMs;
        delay.forward = Math.max(delay.forward, fault.forwardMs);
        delay.backward = Math.max(delay.backward, fault.backwardMs);
        break;
      }
      case 'stall':
        proxies[fault.link]!.stalled.forward = true;
        proxies[fault.link]!.stalled.backward = true;
        break;
      case 'cut':
        break;
    }
  }
  return { kernelDrops, proxies };
}

export function sameConditions(a: LinkConditions, b: LinkConditions): boolean {
  return a.refused === b.refused
    && a.delayMs.forward === b.delayMs.forward && a.delayMs.backward === b.delayMs.backward
    && a.stalled.forward === b.stalled.forward && a.stalled.backward === b.stalled.backward;
}
