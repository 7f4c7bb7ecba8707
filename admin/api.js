// Requests to the node. The node refuses with a status and a text body that says why; those
// become HttpErrors carrying that text, so screens can show the node's own words.

/** The node's root host (e.g. tsibase.localhost:8080): this app is served at x-admin.<root>. */
export const rootHost = location.host.replace(/^x-admin\./, '');

/** The origin of the root domain (`service` omitted) or of a service's subdomain. */
export function originOf(service) {
  return `${location.protocol}//${service ? `${service}.` : ''}${rootHost}`;
}

export class HttpError extends Error {
  constructor(status, text) {
    super(`${text.trim() || 'no reason given'} (HTTP ${status})`);
    this.status = status;
  }
}

/** fetch, with an unreachable node and non-2xx replies as errors that say so. */
export async function request(url, init = {}) {
  let reply;
  try {
    reply = await fetch(url, init);
  } catch (err) {
    throw new Error(`cannot reach the node at ${new URL(url, location.href).host}: ${err.message}`);
  }
  if (!reply.ok) throw new HttpError(reply.status, await reply.text());
  return reply;
}

export async function getJson(url) {
  return (await request(url)).json();
}

export async function getText(url) {
  return (await request(url)).text();
}

/** Sends `body` as JSON; answers the reply's JSON, or undefined for an empty reply. */
export async function sendJson(method, url, body) {
  const reply = await request(url, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const text = await reply.text();
  return text === '' ? undefined : JSON.parse(text);
}

/** POSTs bytes (a packed transaction) and answers the JSON reply (a transaction trace). */
export async function postBytes(url, bytes) {
  const reply = await request(url, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: bytes });
  return reply.json();
}
