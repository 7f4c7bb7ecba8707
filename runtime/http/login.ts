import { bytesToHex } from '../../host-api/encoding/hex.js';
import { FracpackError } from '../../host-api/fracpack/index.js';
import { SignedTransaction, Transaction } from '../../host-api/types/index.js';
import type { TransactionIntake } from '../chain/interface.js';
import { LoginError } from '../chain/login.js';
import { mediaType } from './media-type.js';
import { echoCors, json, methodNotAllowed, reply, text } from './replies.js';
import { secureOriginHost } from './session.js';
import type { SessionTokens } from './session-tokens.js';
import type { ReplyHeaders, WireRequest, WireResponse } from './wire/index.js';

/** A SignedTransaction in JSON; its `transaction` may be the object itself or its packed hex. */
function signedFromJson(body: Uint8Array): SignedTransaction {
  const value = JSON.parse(Buffer.from(body).toString('utf8')) as Record<string, unknown>;
  if (value !== null && typeof value === 'object' && typeof value.transaction === 'object' && value.transaction !== null) {
    value.transaction = bytesToHex(Transaction.pack(Transaction.fromJson(value.transaction)));
  }
  return SignedTransaction.fromJson(value);
}

/** Login replies carry CORS only for the supervisor's own secure origin (docs/http.md §5). */
function loginCors(req: WireRequest, rootHost: string): ReplyHeaders {
  const origin = req.headers.origin;
  return origin && secureOriginHost(origin) === `supervisor.${rootHost}` ? echoCors(origin) : {};
}

/**
 * POST transact.<root>/login (docs/administration.md §4.2, docs/chain.md §7): a signed login transaction, fracpack or
 * JSON, answered with a bearer token for `rootHost` when every check passes.
 */
export async function login(chain: TransactionIntake, tokens: SessionTokens, req: WireRequest, res: WireResponse, target: string, rootHost: string): Promise<void> {
  const cors = loginCors(req, rootHost);
  const method = req.method;
  if (method === 'OPTIONS') return reply(res, 200, undefined, '', cors);
  if (method !== 'POST') return methodNotAllowed(res, target, method, 'POST, OPTIONS', cors);
  const type = mediaType(req);
  if (type !== 'application/octet-stream' && type !== 'application/json') return text(res, 500, 'Expected a json or fracpack body', cors);
  const body = req.body;
  let signed: SignedTransaction;
  try {
    signed = type === 'application/json' ? signedFromJson(body) : SignedTransaction.unpack(body);
  } catch (err) {
    if (err instanceof FracpackError || err instanceof SyntaxError) return text(res, 400, `invalid login transaction: ${err.message}`, cors);
    throw err;
  }
  let user: string;
  try {
    user = await chain.login(signed, rootHost);
  } catch (err) {
    if (err instanceof LoginError) return text(res, err.status, err.message, cors);
    throw err;
  }
  json(res, 200, { access_token: tokens.issue(user, rootHost, Math.floor(Date.now() / 1000)), token_type: 'bearer' }, cors);
}
