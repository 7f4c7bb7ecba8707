import { lookup as dnsLookup, type LookupAddress, type LookupOneOptions } from 'node:dns';
import { isLocalhostName } from '../../host-api/http/localhost.js';

// The name lookup of every URL the node and the CLI dial (peers, `connect`, the CLI's requests):
// names under `localhost` are the loopback address, as browsers take them (RFC 6761), so
// `http://tsibase.localhost:8080`, the URL the README writes, works wherever a URL is given.
// The system resolver does not know such names.

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net.connect, tls.connect, http.request and undici's connector. */
export function localhostLookup(hostname: string, options: LookupOneOptions, callback: LookupCallback): void {
  if (isLocalhostName(hostname.toLowerCase())) {
    if ((options as { all?: boolean }).all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
    return;
  }
  dnsLookup(hostname, options, callback as never);
}
