import { accountNumberFromName, methodNumberFromName } from '../../host-api/names/index.js';
import { Action } from '../../host-api/types/index.js';
import { FracpackError } from '../../host-api/fracpack/index.js';
import { EMPTY_CLAIM } from '../chain/block-signing.js';
import { signedMessage, type MessageOf } from './messages/index.js';

// Transactions passed to the producers in a WasmProducerMessage (docs/p2p.md §2.2, type 64, inside
// a RoutingEnvelope): its `data` is the action psibase's http service sends, `recv` of transact's
// RPC subaccount (transact+1) with the packed SignedTransaction, so psibase producers take what
// we forward.

const HTTP_SERVER = accountNumberFromName('http');
const R_TRANSACT = accountNumberFromName('transact+1');
const RECV = methodNumberFromName('recv');

/**
 * The message that passes `packed` on. A node that is not a producer holds no producer claim:
 * it signs with the empty claim, whose signature is empty (docs/p2p.md §2.0).
 */
export function transactionMessage(packed: Uint8Array): MessageOf<'WasmProducerMessage'> {
  const data = Action.pack({ sender: HTTP_SERVER, service: R_TRANSACT, method: RECV, rawData: packed });
  return signedMessage('WasmProducerMessage', { data, producer: 0n, signer: EMPTY_CLAIM }, new Uint8Array(0));
}

/** The packed SignedTransaction a WasmProducerMessage carries, or undefined when it carries anything else. */
export function forwardedTransaction(message: MessageOf<'WasmProducerMessage'>): Uint8Array | undefined {
  let action: Action;
  try {
    action = Action.unpack(message.body.data);
  } catch (err) {
    if (err instanceof FracpackError) return undefined;
    throw err;
  }
  return action.sender === HTTP_SERVER && action.service === R_TRANSACT && action.method === RECV ? action.rawData : undefined;
}
