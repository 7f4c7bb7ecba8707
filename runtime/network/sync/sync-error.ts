import { TsibaseError } from '../../../host-api/errors.js';

export type SyncErrorCode =
  | 'SYNC_NOT_HEAD'          // a locally produced block that does not extend the head
  | 'SYNC_BAD_LOG'           // the committed block log lacks a block at or below the commit index
  | 'SYNC_UNEXPECTED_RESULT'; // an apply result for a block sync did not hand out

/** A caller broke block sync's contract (docs/p2p.md §6.2); the state machine is left unchanged. */
export class SyncError extends TsibaseError {
  declare readonly code: SyncErrorCode;

  constructor(code: SyncErrorCode, message: string) {
    super(code, message);
  }
}
