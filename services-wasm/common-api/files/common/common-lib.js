// common-lib.js: the browser library every page on a tsibase network can import from
// /common/common-lib.js. RPC wrappers, hex conversions, TaPoS, JSON <-> fracpack through the
// node's pack endpoints, and building, signing (WebCrypto, P-256) and pushing transactions.

/** An HTTP reply that was not 2xx; `message` holds the body the node or service sent. */
export class RpcError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function checked(response) {
  if (!response.ok) throw new RpcError(response.status, (await response.text()) || `HTTP ${response.status}`);
  return response;
}

export async function getText(url) {
  return (await checked(await fetch(url))).text();
}

export async function getJson(url) {
  return (await checked(await fetch(url))).json();
}

export async function postJson(url, value) {
  return checked(await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(value) }));
}

export async function postJsonGetJson(url, value) {
  return (await postJson(url, value)).json();
}

export async function postJsonGetArrayBuffer(url, value) {
  return (await postJson(url, value)).arrayBuffer();
}

export async function postArrayBufferGetJson(url, bytes) {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: bytes });
  return (await checked(response)).json();
}

// ---- conversions ----

export function uint8ArrayToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();
}

export function hexToUint8Array(hex) {
  if (typeof hex !== 'string' || hex.length % 2 !== 0 || /[^0-9a-fA-F]/.test(hex)) throw new Error(`not hex: ${hex}`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

function base64ToBytes(text) {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

function bytesToBase64(bytes) {
  return btoa(String.fromCharCode(...bytes));
}

/** The DER bytes of a PEM block (`label` e.g. "PRIVATE KEY"). */
export function pemToDer(pem, label) {
  const m = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`).exec(pem);
  if (!m) throw new Error(`not a PEM ${label}`);
  return base64ToBytes(m[1].replace(/\s+/g, ''));
}

export function derToPem(der, label) {
  const lines = bytesToBase64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

// ---- the network ----

let rootDomain;

/** The root domain of the network serving this page. */
export async function getRootDomain() {
  rootDomain ??= await getJson('/common/rootdomain');
  return rootDomain;
}

/**
 * The base URL of `service`'s subdomain: of the node at `baseUrl` (e.g.
 * "http://tsibase.localhost:8080"), or, by default, of the network serving this page.
 */
export async function siteUrl(service, baseUrl = '') {
  if (baseUrl) {
    const url = new URL(baseUrl);
    return `${url.protocol}//${service}.${url.host}`;
  }
  const root = await getRootDomain();
  const port = location.port ? `:${location.port}` : '';
  return `${location.protocol}//${service}.${root}${port}`;
}

/** `{refBlockIndex, refBlockSuffix}` of the head block. */
export async function getTaposForHeadBlock(baseUrl = '') {
  return getJson(`${baseUrl}/common/tapos/head`);
}

/** The arguments of `service::method` packed by the service's /pack_action helper, as hex. */
export async function packAction(service, method, args, baseUrl = '') {
  const bytes = await postJsonGetArrayBuffer(`${await siteUrl(service, baseUrl)}/pack_action/${method}`, args);
  return uint8ArrayToHex(new Uint8Array(bytes));
}

/** Actions with `data` (arguments as JSON) get `rawData` (packed by their service). */
export async function packActions(actions, baseUrl = '') {
  return Promise.all(actions.map(async (a) => {
    if (a.rawData !== undefined) return a;
    const { data, ...rest } = a;
    return { ...rest, rawData: await packAction(a.service, a.method, data ?? {}, baseUrl) };
  }));
}

/** `value` (JSON) packed by the node's /common/pack/<type> endpoint. */
async function packAs(baseUrl, type, value) {
  return new Uint8Array(await postJsonGetArrayBuffer(`${baseUrl}/common/pack/${type}`, value));
}

export async function packTransaction(baseUrl, transaction) {
  return packAs(baseUrl, 'Transaction', transaction);
}

export async function packSignedTransaction(baseUrl, signedTransaction) {
  return packAs(baseUrl, 'SignedTransaction', signedTransaction);
}

// ---- keys (P-256 via WebCrypto) ----

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' };

/** A new P-256 key pair: `{privateKey: PKCS#8 PEM, publicKey: SPKI DER as hex}`. */
export async function generateKeyPair() {
  const pair = await crypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
  return { privateKey: derToPem(pkcs8, 'PRIVATE KEY'), publicKey: uint8ArrayToHex(spki) };
}

/** A private key (PKCS#8 PEM) ready to sign, with its public key (SPKI DER hex) for the claim. */
export async function importPrivateKey(pem) {
  const key = await crypto.subtle.importKey('pkcs8', pemToDer(pem, 'PRIVATE KEY'), ECDSA, true, ['sign']);
  const jwk = await crypto.subtle.exportKey('jwk', key);
  const publicKey = await crypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, ECDSA, true, ['verify']);
  return { key, publicKey: uint8ArrayToHex(new Uint8Array(await crypto.subtle.exportKey('spki', publicKey))) };
}

/** The SPKI DER hex of a private key's public key. */
export async function publicKeyOf(privateKeyPem) {
  return (await importPrivateKey(privateKeyPem)).publicKey;
}

// ---- transactions ----

/** The TaPoS of the head block with an expiration `seconds` from now. */
export async function taposExpiringIn(baseUrl = '', seconds = 60) {
  const head = await getTaposForHeadBlock(baseUrl);
  const expiration = new Date(Math.floor(Date.now() / 1000 + seconds) * 1000).toISOString().replace('.000Z', 'Z');
  return { ...head, flags: 0, expiration };
}

/**
 * Packs and signs a transaction (`{tapos, actions}`; actions may carry `data` instead of
 * `rawData`) with P-256 private keys (PEM): one verify-sig claim and one r||s proof per key.
 * Returns the packed SignedTransaction.
 */
export async function signTransaction(baseUrl, transaction, privateKeys = []) {
  const keys = await Promise.all(privateKeys.map(importPrivateKey));
  const trx = {
    ...transaction,
    actions: await packActions(transaction.actions, baseUrl),
    claims: keys.map((k) => ({ service: 'verify-sig', rawData: k.publicKey })),
  };
  const packed = await packTransaction(baseUrl, trx);
  const proofs = await Promise.all(keys.map(async (k) =>
    uint8ArrayToHex(new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, k.key, packed)))));
  return packSignedTransaction(baseUrl, { transaction: uint8ArrayToHex(packed), proofs });
}

/** Pushes a packed SignedTransaction; resolves to its trace, rejects with the trace's error. */
export async function pushPackedSignedTransaction(baseUrl, packed, waitFor = 'applied') {
  const trace = await postArrayBufferGetJson(`${await siteUrl('transact', baseUrl)}/push_transaction?wait_for=${waitFor}`, packed);
  if (trace.error) throw Object.assign(new Error(trace.error), { trace });
  return trace;
}

/** Fills in TaPoS if missing, signs with `privateKeys` and pushes; resolves to the trace. */
export async function signAndPushTransaction(baseUrl, transaction, privateKeys = [], waitFor = 'applied') {
  const tapos = transaction.tapos ?? await taposExpiringIn(baseUrl);
  return pushPackedSignedTransaction(baseUrl, await signTransaction(baseUrl, { ...transaction, tapos }, privateKeys), waitFor);
}

/** One action from `sender`, arguments as JSON: packed, signed, pushed. */
export async function action(service, method, data, sender, privateKeys = []) {
  return signAndPushTransaction('', { actions: [{ sender, service, method, data }] }, privateKeys);
}
