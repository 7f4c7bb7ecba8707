import { TsibaseError } from '../../host-api/errors.js';
import { FracpackError } from '../../host-api/fracpack/index.js';
import { accountNameFromNumber, methodNumberFromName } from '../../host-api/names/index.js';
import { DO_NOT_BROADCAST } from '../../host-api/chain/index.js';
import { Transaction, type SignedTransaction } from '../../host-api/types/index.js';
import { CheckAuthArgs, LoginData } from '../../host-api/types/native.js';
import type { Executor } from '../wasm/executor.js';
import { accountExists, authServiceOf } from './accounts-queries.js';
import { decodeSigned, type TransactionProcessor } from './transaction-processor.js';

const LOGIN_SYS = methodNumberFromName('loginSys');
const CHECK_AUTH_SYS = methodNumberFromName('checkAuthSys');
/** checkAuthSys flags of a login: a top-level action checked as the first one (docs/chain.md §5). */
const LOGIN_AUTH_FLAGS = 0x40000001;

export type LoginErrorCode =
  | 'LOGIN_INVALID'     // not a login transaction, or one that fails a rule (400)
  | 'LOGIN_PROOF'       // a proof's verify service aborted (500)
  | 'LOGIN_NO_ACCOUNT'; // the user does not exist (404)

/** A refused login; `status` is the HTTP status docs/chain.md §7 gives the rule. */
export class LoginError extends TsibaseError {
  declare readonly code: LoginErrorCode;

  constructor(code: LoginErrorCode, message: string, readonly status: number) {
    super(code, message);
  }
}

function invalid(message: string): LoginError {
  return new LoginError('LOGIN_INVALID', message, 400);
}

function unpackTransaction(signed: SignedTransaction): Transaction {
  try {
    return Transaction.unpack(signed.transaction);
  } catch (err) {
    if (err instanceof FracpackError) throw invalid(`transaction has invalid format: ${err.message}`);
    throw err;
  }
}

/**
 * Checks a login transaction (docs/chain.md §7): one `user => <any>::loginSys({rootHost})` action
 * with the do-not-broadcast flag, unexpired, for this root host, every proof verified and the
 * user's auth service approving its claims. It is never executed. Returns the user's name.
 */
export async function checkLogin(
  executor: Executor, processor: TransactionProcessor, signed: SignedTransaction, rootHost: string, nowSeconds: number,
): Promise<string> {
  const transaction = unpackTransaction(signed);
  const [action, ...more] = transaction.actions;
  if (!action || more.length > 0 || action.method !== LOGIN_SYS) throw invalid('Expected a login transaction');
  if ((transaction.tapos.flags & DO_NOT_BROADCAST) === 0) throw invalid('Login transaction must be do_not_broadcast');
  if (nowSeconds > Number(transaction.tapos.expiration)) throw invalid('Login expired');
  let data;
  try {
    data = LoginData.unpack(action.rawData);
  } catch (err) {
    if (err instanceof FracpackError) throw invalid(`login data has invalid format: ${err.message}`);
    throw err;
  }
  // The message is psibase's, spelling included.
  if (data.rootHost !== rootHost) throw invalid('Login data contains invalid root host');
  if (signed.proofs.length !== transaction.claims.length) throw invalid('Proofs and claims must have the same size');

  try {
    await processor.verifyProofs(decodeSigned(signed, transaction));
  } catch (err) {
    if (err instanceof TsibaseError) throw new LoginError('LOGIN_PROOF', err.message, 500);
    throw err;
  }

  const user = action.sender;
  // Read-only: the checks are RPC queries, so nothing they do can change state.
  if (!accountExists(executor, user)) throw new LoginError('LOGIN_NO_ACCOUNT', 'Account not found', 404);
  const { error, retval } = executor.run({
    mode: 'rpc',
    target: {
      action: {
        sender: 0n, service: authServiceOf(executor, user), method: CHECK_AUTH_SYS, rawData: CheckAuthArgs.pack({
          flags: LOGIN_AUTH_FLAGS, requester: 0n, sender: user, action: { service: 0n, method: 0n }, allowedActions: [], claims: transaction.claims,
        }),
      },
    },
  });
  if (error instanceof TsibaseError) throw invalid('Login failed');
  if (error) throw error;
  // An auth service approves by answering nothing or true (newer psibase's bool); anything else refuses (docs/chain.md §5).
  if (retval.length > 0 && !(retval.length === 1 && retval[0] === 1)) throw invalid('Login failed');
  return accountNameFromNumber(user);
}
