// Network namespaces for test nodes (`ip netns`, iproute2; needs root): each node runs in a
// namespace of its own, joined to the test's namespace by a veth pair, so that the kernel carries
// its traffic and can silently lose it. Node i's namespace holds 10.S.i.2 (the node's address);
// the test's end of the pair holds 10.S.i.1 (the test's own requests come from there) and one
// address per link of node i, 10.S.i.(10 + peer), where the proxy of that link meets node i. A
// blackhole rule in node i's namespace for one of those addresses loses every packet node i sends
// on that link, silently, as a broken path does: TCP retransmits and, once the rule goes, delivers.
// Only namespaces and addresses this test made are touched; S is a /16 no interface uses yet.
import { execFileSync } from 'node:child_process';

const PREFIX = 'tsichaos';

/** Runs `ip <args>`; its output, or an error that says why (root is needed). */
export function ip(args: readonly string[]): string {
  try {
    return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`ip ${args.join(' ')}: ${stderr || (err as Error).message}${/Operation not permitted/.test(stderr) ? ' (network namespaces need root, CAP_NET_ADMIN)' : ''}`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Deletes the namespaces left by test processes that died before they could (killed by a
 * watchdog), after the node processes still running in them.
 */
function removeOrphans(): void {
  for (const line of ip(['netns', 'list']).split('\n')) {
    const m = new RegExp(`^(${PREFIX}-(\\d+)-\\d+)\\b`).exec(line);
    if (!m || alive(Number(m[2]))) continue;
    for (const pid of ip(['netns', 'pids', m[1]!]).split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    ip(['netns', 'delete', m[1]!]);
  }
}

/** A second octet S for 10.S.0.0/16 that no address of this namespace is in. */
function freeSubnet(): number {
  const used = new Set([...ip(['-o', '-4', 'addr', 'show']).matchAll(/inet 10\.(\d+)\./g)].map((m) => Number(m[1])));
  for (let k = 0; k < 150; k++) {
    const s = 100 + ((process.pid + k) % 150);
    if (!used.has(s)) return s;
  }
  throw new Error('no free 10.S.0.0/16 for test namespaces (10.100 to 10.249 are all in use)');
}

/** One node's namespace. */
export interface NodeNamespace {
  readonly index: number;
  readonly name: string;
  /** The node's address, in its namespace. */
  readonly nodeAddress: string;
  /** The test's address on this node's veth: its requests to the node come from there. */
  readonly hostAddress: string;
  /** The command prefix that runs a program in the namespace. */
  readonly launcher: readonly string[];
}

export class NodeNamespaces {
  private readonly dropped = new Set<string>();

  private constructor(readonly subnet: number, readonly namespaces: readonly NodeNamespace[], private readonly nodeCount: number) {}

  /** Namespaces for `count` nodes, each with an address for a link to every other. */
  static create(count: number): NodeNamespaces {
    removeOrphans();
    const subnet = freeSubnet();
    const made: NodeNamespace[] = [];
    const set = new NodeNamespaces(subnet, made, count);
    try {
      for (let i = 0; i < count; i++) {
        const name = `${PREFIX}-${process.pid}-${i}`;
        const veth = `tc${process.pid}n${i}`;
        const base = `10.${subnet}.${i}`;
        ip(['netns', 'add', name]);
        made.push({ index: i, name, nodeAddress: `${base}.2`, hostAddress: `${base}.1`, launcher: ['ip', 'netns', 'exec', name] });
        ip(['link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', name]);
        for (const host of [1, ...[...Array(count).keys()].map((peer) => 10 + peer)]) ip(['addr', 'add', `${base}.${host}/24`, 'dev', veth]);
        ip(['link', 'set', veth, 'up']);
        ip(['-n', name, 'addr', 'add', `${base}.2/24`, 'dev', 'eth0']);
        ip(['-n', name, 'link', 'set', 'eth0', 'up']);
        ip(['-n', name, 'link', 'set', 'lo', 'up']);
      }
    } catch (err) {
      set.destroy();
      throw err;
    }
    return set;
  }

  /** The address where the proxy of node `index`'s link to `peer` meets node `index`. */
  linkAddress(index: number, peer: number): string {
    if (peer < 0 || peer >= this.nodeCount || peer === index) throw new Error(`node ${index} has no link to ${peer}`);
    return `10.${this.subnet}.${index}.${10 + peer}`;
  }

  /** Loses (or stops losing) every packet node `index` sends on its link to `peer`. */
  setDropped(index: number, peer: number, drop: boolean): void {
    const key = `${index}>${peer}`;
    if (drop === this.dropped.has(key)) return;
    const ns = this.namespaces[index]!;
    ip(['-n', ns.name, 'rule', drop ? 'add' : 'delete', 'from', ns.nodeAddress, 'to', this.linkAddress(index, peer), 'blackhole']);
    if (drop) this.dropped.add(key);
    else this.dropped.delete(key);
  }

  /**
   * Deletes the namespaces (their veth pairs and rules go with them once their processes have
   * exited, so stop the nodes first).
   */
  destroy(): void {
    for (const ns of this.namespaces) {
      try {
        ip(['netns', 'delete', ns.name]);
      } catch {
        // Already gone.
      }
    }
    this.dropped.clear();
  }
}
