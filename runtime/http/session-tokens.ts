import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

// Login tokens (docs/chain.md §7): JWT HS256 with the payload {sub, aud, exp}, exp a decimal string of
// unix seconds, unpadded base64url, keyed by 16 random bytes the node keeps to itself, so a token
// is good on the node that issued it only.

const HEADER = base64url(Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'HS256' })));
const KEY_BYTES = 16;
/** Tokens live 30 days. */
export const TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

function base64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

export class SessionTokens {
  constructor(private readonly key: Uint8Array) {
    if (key.length !== KEY_BYTES) throw new Error(`a session key has ${KEY_BYTES} bytes, not ${key.length}`);
  }

  /** A node's key from `path`, created there (owner-only) on first use. */
  static fromKeyFile(path: string): SessionTokens {
    if (!existsSync(path)) writeFileSync(path, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
    return new SessionTokens(readFileSync(path));
  }

  static withRandomKey(): SessionTokens {
    return new SessionTokens(randomBytes(KEY_BYTES));
  }

  /** A token naming `user` for requests to `rootHost`, good for 30 days from `nowSeconds`. */
  issue(user: string, rootHost: string, nowSeconds: number): string {
    const payload = base64url(Buffer.from(JSON.stringify({ sub: user, aud: rootHost, exp: String(nowSeconds + TOKEN_LIFETIME_SECONDS) })));
    return `${HEADER}.${payload}.${this.signature(`${HEADER}.${payload}`)}`;
  }

  /**
   * The user a token names when it is well formed, signed by this node, meant for `rootHost`
   * and not expired; otherwise undefined (a bad token is the same as no token).
   */
  userOf(token: string, rootHost: string, nowSeconds: number): string | undefined {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== HEADER) return undefined;
    const expected = Buffer.from(this.signature(`${parts[0]}.${parts[1]}`));
    const given = Buffer.from(parts[2]!);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    const { sub, aud, exp } = (claims ?? {}) as Record<string, unknown>;
    if (typeof sub !== 'string' || aud !== rootHost || typeof exp !== 'string' || !/^\d+$/.test(exp)) return undefined;
    return nowSeconds <= Number(exp) ? sub : undefined;
  }

  private signature(signingInput: string): string {
    return base64url(createHmac('sha256', this.key).update(signingInput).digest());
  }
}
