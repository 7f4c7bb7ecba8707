import { TsibaseError } from '../../../host-api/errors.js';

export type LinkErrorCode =
  | 'P2P_BAD_URL'            // a peer URL that cannot be dialled
  | 'P2P_BAD_LINK_MESSAGE'   // a frame of type 64 or more that is not a link message we know
  | 'P2P_BAD_FRAME';         // a frame the layer above asked to send that the link cannot carry

/** A refusal of the peer link layer (docs/p2p.md §1). */
export class LinkError extends TsibaseError {
  declare readonly code: LinkErrorCode;

  constructor(code: LinkErrorCode, message: string) {
    super(code, message);
  }
}
