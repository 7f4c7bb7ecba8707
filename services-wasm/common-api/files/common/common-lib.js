// common-lib.js: the browser library every page on a tsibase network can import from
// /common/common-lib.js, with psibase's common-lib API (docs/serving.md §4.2): the same names,
// argument orders and results, so a psibase page runs unchanged. RPC wrappers, hex conversions,
// TaPoS, JSON <-> fracpack through the node's pack endpoints, signing (psibase's text keys in
// plain JavaScript, PEM keys through WebCrypto) and pushing transactions. The key conversions
// live in key-conversions.mjs and are exported from here too. Beyond psibase's API it keeps
// tsibase's own helpers (getRootDomain, siteUrl, generateKeyPair, taposExpiringIn, action, …).

import { sha256 } from './@noble/hashes/sha2.js';
import { privateStringToKeyPair, publicKeyPairToDER, signatureToBin } from './key-conversions.mjs';

export * from './key-conversions.mjs';

/** A failed request (`message`: the body the node or service sent) or a failed transaction (`trace`). */
export class RPCError extends Error {
  constructor(message, trace) {
    super(message);
    this.trace = trace;
  }
}

/** The name this library used before it took psibase's. */
export { RPCError as RpcError };

export const ErrorCodes = {
  invalidResource: 404,
  serverError: 500,
};

export const ErrorMessages = [
  { code: ErrorCodes.invalidResource, message: 'Error 404: Resource not found' },
  { code: ErrorCodes.serverError, message: 'Error 500: Server error, possibly incorrect transaction data' },
];

// ---- URLs ----

/**
 * The URL of `path` on the sibling domain `subDomain` of `baseUrl` (default: this page's URL):
 * the first label of the host is replaced by `subDomain`, or dropped when it is empty. So
 * `baseUrl` is a service's domain, e.g. this page's.
 */
export function siblingUrl(baseUrl, subDomain, path) {
  const url = new URL(baseUrl || window.location.href);
  const labels = url.hostname.split('.');
  labels.shift();
  if (subDomain) labels.unshift(subDomain);
  url.hostname = labels.join('.');
  return url.origin + (path ? `/${path.replace(/^\/+/, '')}` : '');
}

/** `baseUrl` without trailing slashes ('' for none): where the common endpoints are. */
function commonBase(baseUrl) {
  return (baseUrl ?? '').replace(/\/+$/, '');
}

let rootDomain;

/** The root domain of the network serving this page. */
export async function getRootDomain() {
  rootDomain ??= await getJson('/common/rootdomain');
  return rootDomain;
}

/**
 * The base URL of `service`'s subdomain: of the node whose root domain is at `baseUrl` (e.g.
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

// ---- requests ----

export async function throwIfError(response) {
  if (!response.ok) {
    const error = new RPCError((await response.text()) || `HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return response;
}

export async function get(url, options = {}) {
  return throwIfError(await fetch(url, { ...options, method: 'GET' }));
}

export async function getText(url) {
  return (await get(url)).text();
}

export async function getJson(url) {
  return (await get(url, { headers: { Accept: 'application/json' } })).json();
}

export async function getArrayBuffer(url) {
  return (await get(url)).arrayBuffer();
}

function post(url, contentType, body, options = {}) {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': contentType }, body, ...options }).then(throwIfError);
}

export async function postText(url, text) {
  return post(url, 'text', text);
}

export async function postGraphQL(url, graphql, options) {
  return post(url, 'application/graphql', graphql, options);
}

export async function postJson(url, json, options) {
  return post(url, 'application/json', JSON.stringify(json), options);
}

export async function postArrayBuffer(url, arrayBuffer) {
  return post(url, 'application/octet-stream', arrayBuffer);
}

export async function postTextGetJson(url, text) {
  return (await postText(url, text)).json();
}

export async function postGraphQLGetJson(url, graphQL, options) {
  return (await postGraphQL(url, graphQL, options)).json();
}

export async function postJsonGetJson(url, json, options) {
  return (await postJson(url, json, options)).json();
}

export async function postJsonGetText(url, json) {
  return (await postJson(url, json)).text();
}

export async function postJsonGetArrayBuffer(url, json) {
  return (await postJson(url, json)).arrayBuffer();
}

export async function postArrayBufferGetJson(url, arrayBuffer) {
  return (await postArrayBuffer(url, arrayBuffer)).json();
}

// ---- hex and PEM ----

export function uint8ArrayToHex(data) {
  return Array.from(data, (b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();
}

export function hexToUint8Array(hex) {
  if (typeof hex !== 'string') throw new Error('Expected string containing hex digits');
  if (hex.length % 2) throw new Error('Odd number of hex digits');
  if (/[^0-9a-fA-F]/.test(hex)) throw new Error('Expected hex string');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substring(2 * i, 2 * i + 2), 16);
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

// ---- packing ----

export async function getTaposForHeadBlock(baseUrl = '') {
  return getJson(`${commonBase(baseUrl)}/common/tapos/head`);
}

/** The TaPoS of the head block with an expiration `seconds` from now. */
export async function taposExpiringIn(baseUrl = '', seconds = 60) {
  const head = await getTaposForHeadBlock(baseUrl);
  const expiration = new Date(Math.floor(Date.now() / 1000 + seconds) * 1000).toISOString().replace('.000Z', 'Z');
  return { ...head, flags: 0, expiration };
}

/**
 * `{sender, service, method, rawData}`: an action whose `data` (arguments as JSON) is packed by
 * its service's /pack_action (on the sibling domain of `baseUrl`); one with `rawData` is kept.
 */
export async function packAction(baseUrl, action) {
  let { sender, service, method, data, rawData } = action;
  if (!rawData) {
    const url = siblingUrl(baseUrl, service, `/pack_action/${method}`);
    rawData = uint8ArrayToHex(new Uint8Array(await postJsonGetArrayBuffer(url, data)));
  }
  return { sender, service, method, rawData };
}

export async function packActions(baseUrl, actions) {
  return Promise.all(actions.map((action) => packAction(baseUrl, action)));
}

/** The packed transaction (an ArrayBuffer); its actions may carry `data` instead of `rawData`. */
export async function packTransaction(baseUrl, transaction) {
  return postJsonGetArrayBuffer(`${commonBase(baseUrl)}/common/pack/Transaction`, {
    ...transaction,
    actions: await packActions(baseUrl, transaction.actions ?? []),
  });
}

/** `{transactionHex, digest}`: the packed transaction and its SHA-256 (an array of bytes). */
export async function packAndDigestTransaction(baseUrl, transaction) {
  const packed = new Uint8Array(await packTransaction(baseUrl, transaction));
  return { transactionHex: uint8ArrayToHex(packed), digest: Array.from(sha256(packed)) };
}

/** The packed SignedTransaction (an ArrayBuffer); `transaction` is an object or the packed hex. */
export async function packSignedTransaction(baseUrl, signedTransaction) {
  if (typeof signedTransaction.transaction !== 'string') {
    const packed = new Uint8Array(await packTransaction(baseUrl, signedTransaction.transaction));
    signedTransaction = { ...signedTransaction, transaction: uint8ArrayToHex(packed) };
  }
  return postJsonGetArrayBuffer(`${commonBase(baseUrl)}/common/pack/SignedTransaction`, signedTransaction);
}

// ---- signing and pushing ----

const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' };

/** A new P-256 key pair: `{privateKey: PKCS#8 PEM, publicKey: SPKI DER as hex}` (WebCrypto). */
export async function generateKeyPair() {
  const pair = await crypto.subtle.generateKey(ECDSA_P256, true, ['sign', 'verify']);
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
  return { privateKey: derToPem(pkcs8, 'PRIVATE KEY'), publicKey: uint8ArrayToHex(spki) };
}

/** A P-256 private key (PKCS#8 PEM) ready to sign, with its public key (SPKI DER hex, uncompressed). */
export async function importPrivateKey(pem) {
  const key = await crypto.subtle.importKey('pkcs8', pemToDer(pem, 'PRIVATE KEY'), ECDSA_P256, true, ['sign']);
  const jwk = await crypto.subtle.exportKey('jwk', key);
  const publicKey = await crypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, ECDSA_P256, true, ['verify']);
  return { key, publicKey: uint8ArrayToHex(new Uint8Array(await crypto.subtle.exportKey('spki', publicKey))) };
}

/** The SPKI DER hex of a PEM private key's public key. */
export async function publicKeyOf(privateKeyPem) {
  return (await importPrivateKey(privateKeyPem)).publicKey;
}

/**
 * A signer of packed transactions: `{claim, sign(packed)}` with the claim's public key (hex) and
 * the r || s proof. A key is a `PVT_K1_…`/`PVT_R1_…` string or `{keyType, keyPair}` (psibase's,
 * compressed public key), or a PKCS#8 PEM string (a P-256 key through WebCrypto, uncompressed).
 */
async function signerOf(key) {
  if (typeof key === 'string' && key.includes('-----BEGIN')) {
    const { key: cryptoKey, publicKey } = await importPrivateKey(key);
    const algorithm = { name: 'ECDSA', hash: 'SHA-256' };
    return { claim: publicKey, sign: async (packed) => new Uint8Array(await crypto.subtle.sign(algorithm, cryptoKey, packed)) };
  }
  const pair = typeof key === 'string' ? privateStringToKeyPair(key) : key;
  return {
    claim: uint8ArrayToHex(publicKeyPairToDER(pair)),
    sign: async (packed) => signatureToBin({ signature: pair.keyPair.sign(sha256(packed)) }),
  };
}

/**
 * Signs `transaction` (`{tapos, actions}`; actions may carry `data`) with `privateKeys`: one
 * verify-sig claim and one proof per key. Returns `{transaction: packed hex, proofs: [hex]}`.
 */
export async function signTransaction(baseUrl, transaction, privateKeys) {
  const signers = await Promise.all((privateKeys || []).map(signerOf));
  const claims = signers.map((s) => ({ service: 'verify-sig', rawData: s.claim }));
  const packed = new Uint8Array(await packTransaction(baseUrl, { ...transaction, claims }));
  const proofs = await Promise.all(signers.map(async (s) => uint8ArrayToHex(await s.sign(packed))));
  return { transaction: uint8ArrayToHex(packed), proofs };
}

/**
 * Pushes a packed SignedTransaction to the transact service (the sibling of `baseUrl`); resolves
 * to the trace, rejects with an RPCError carrying it when the transaction failed. `waitFor`
 * (tsibase's addition): "applied", "final", or undefined for the node's default.
 */
export async function pushPackedSignedTransaction(baseUrl, packed, waitFor) {
  const query = waitFor ? `?wait_for=${waitFor}` : '';
  const trace = await postArrayBufferGetJson(siblingUrl(baseUrl, 'transact', `/push_transaction${query}`), packed);
  if (trace.error) throw new RPCError(trace.error, trace);
  return trace;
}

/** `waitFor`: as pushPackedSignedTransaction's (tsibase's addition). */
export async function packAndPushSignedTransaction(baseUrl, signedTransaction, waitFor) {
  return pushPackedSignedTransaction(baseUrl, await packSignedTransaction(baseUrl, signedTransaction), waitFor);
}

/**
 * Signs `transaction` with `privateKeys` and pushes it; resolves to the trace. tsibase's
 * additions: without `tapos` the head block's is used, expiring in a minute; `waitFor` as
 * pushPackedSignedTransaction's ("applied" answers a failure at once, the node's default
 * "final" at the expiration). A failure rejects with an Error whose message is psibase's (the
 * cause's, prefixed "Error: ") and which keeps the trace.
 */
export async function signAndPushTransaction(baseUrl, transaction, privateKeys, waitFor) {
  try {
    const tapos = transaction.tapos ?? await taposExpiringIn(commonBase(baseUrl));
    return await packAndPushSignedTransaction(baseUrl, await signTransaction(baseUrl, { ...transaction, tapos }, privateKeys), waitFor);
  } catch (e) {
    throw Object.assign(new Error(e), { trace: e?.trace });
  }
}

/** One action from `sender`, arguments as JSON: packed, signed, pushed from this page; resolves once applied. */
export async function action(service, method, data, sender, privateKeys = []) {
  return signAndPushTransaction(null, { actions: [{ sender, service, method, data }] }, privateKeys, 'applied');
}
