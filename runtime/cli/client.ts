import { Agent, request } from 'undici';
import { TsibaseError } from '../../host-api/errors.js';
import { localhostLookup } from '../http/localhost-lookup.js';

// The CLI's HTTP client (undici). Names under `localhost` resolve to the loopback address
// (runtime/http/localhost-lookup.ts), so `http://tsibase.localhost:8080` and its service
// subdomains work anywhere.

const agent = new Agent({ connect: { lookup: localhostLookup as never } });

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
