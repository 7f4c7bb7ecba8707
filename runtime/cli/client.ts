import { lookup as dnsLookup, type LookupAddress, type LookupOneOptions } from 'node:dns';
import { Agent, request } from 'undici';
import { TsibaseError } from '../../host-api/errors.js';
import { isLocalhostName } from '../../host-api/http/localhost.js';

// The CLI's HTTP client (undici). Names under `localhost` resolve to the loopback address, as
// browsers do, so `http://tsibase.localhost:8080` and its service subdomains work anywhere.

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function lookup(hostname: string, options: LookupOneOptions, callback: LookupCallback): void {
  if (isLocalhostName(hostname)) {
    if ((options as { all?: boolean }).all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
    return;
  }
  dnsLookup(hostname, options, callback as never);
}

const agent = new Agent({ connect: { lookup: lookup as never } });

export interface HttpReply {
  status: number;
  contentType: string;
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array;
  text(): string;
  json(): unknown;
}

export async function httpRequest(url: string, init: { method?: string; body?: Uint8Array; headers?: Record<string, string> } = {}): Promise<HttpReply> {
  let r;
  try {
    r = await request(url, { method: (init.method ?? 'GET') as 'GET', body: init.body, headers: init.headers, dispatcher: agent });
  } catch (err) {
    throw new TsibaseError('HTTP_UNREACHABLE', `cannot reach ${url}: ${(err as Error).message}`);
  }
  const body = new Uint8Array(await r.body.arrayBuffer());
  const text = () => new TextDecoder().decode(body);
  return {
    status: r.statusCode,
    contentType: String(r.headers['content-type'] ?? ''),
    headers: r.headers,
    body,
    text,
    json: () => JSON.parse(text()),
  };
}

/** The URL of `target` (a path, optionally with a query) on `service`'s subdomain of the node at `api`. */
export function serviceUrl(api: string, service: string, target: string): string {
  const url = new URL(target, api);
  url.hostname = `${service}.${url.hostname}`;
  return url.toString();
}
