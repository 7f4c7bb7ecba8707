import { TsibaseError } from '../../../host-api/errors.js';

export type P2PMessageErrorCode =
  | 'P2P_BAD_MESSAGE'    // a received frame is empty or its body does not decode as its type says
  | 'P2P_UNENCODABLE';   // a message to send does not fit its type (a bug of the sender)

/** A P2P message could not be decoded or encoded; the message names the type and the problem. */
export class P2PMessageError extends TsibaseError {
  declare readonly code: P2PMessageErrorCode;

  constructor(code: P2PMessageErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
