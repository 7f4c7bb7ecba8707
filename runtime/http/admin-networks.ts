import { BlockList, isIP } from 'node:net';
import { TsibaseError } from '../../host-api/errors.js';

// The peer addresses admitted to the admin API (docs/http.md §4 rule 1): the machine itself (127/8,
// ::1) and PSIBASE_ADMIN_IP, a comma-separated list of exact addresses (`10.9.8.7`) and CIDR
// ranges (`10.0.0.0/8`, `fd00::/8`). An IPv4 address matches IPv4 entries whether it comes plain
// or IPv4-mapped (`::ffff:10.1.2.3`).

/** An entry of PSIBASE_ADMIN_IP that is neither an address nor a CIDR range. */
export class AdminNetworkError extends TsibaseError {
  constructor(entry: string, problem: string) {
    super('HTTP_BAD_ADMIN_IP', `PSIBASE_ADMIN_IP: '${entry}' ${problem}`);
  }
}

const family = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 4 ? 'ipv4' : 'ipv6');

export class AdminNetworks {
  private constructor(private readonly list: BlockList) {}

  /** Parses the variable's value; throws AdminNetworkError naming the first entry that does not parse. */
  static parse(value: string | undefined): AdminNetworks {
    const list = new BlockList();
    list.addSubnet('127.0.0.0', 8, 'ipv4');
    list.addAddress('::1', 'ipv6');
    const entries = (value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
    for (const entry of entries) {
      const slash = entry.indexOf('/');
      const address = slash < 0 ? entry : entry.slice(0, slash);
      if (isIP(address) === 0) throw new AdminNetworkError(entry, 'is not an IP address or a CIDR range (10.0.0.0/8, fd00::/8)');
      if (slash < 0) {
        list.addAddress(address, family(address));
        continue;
      }
      const bits = entry.slice(slash + 1);
      const max = isIP(address) === 4 ? 32 : 128;
      if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) throw new AdminNetworkError(entry, `has a prefix length that is not a whole number from 0 to ${max}`);
      list.addSubnet(address, Number(bits), family(address));
    }
    return new AdminNetworks(list);
  }

  /** Whether `address` (an IP address as a socket reports it) is loopback or one of the entries. */
  admits(address: string): boolean {
    if (isIP(address) === 0) return false;
    return this.list.check(address, family(address));
  }
}

let cached: { value: string | undefined; networks: AdminNetworks } | undefined;

/** The networks of the process's PSIBASE_ADMIN_IP, parsed once per value. */
export function adminNetworksOf(env: NodeJS.ProcessEnv = process.env): AdminNetworks {
  const value = env.PSIBASE_ADMIN_IP;
  if (cached === undefined || cached.value !== value) cached = { value, networks: AdminNetworks.parse(value) };
  return cached.networks;
}
