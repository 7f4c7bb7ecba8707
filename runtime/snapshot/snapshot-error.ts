import { TsibaseError } from '../../host-api/errors.js';

export type SnapshotErrorCode =
  | 'SNAPSHOT_NOT_A_SNAPSHOT'  // the file does not start with the snapshot magic
  | 'SNAPSHOT_VERSION'         // a snapshot version this node does not read
  | 'SNAPSHOT_TRUNCATED'       // the file ends inside a row
  | 'SNAPSHOT_BAD_ROW'         // an unknown database id, databases out of order, or a row that does not decode
  | 'SNAPSHOT_CHECKSUM'        // the rows' KvMerkle roots differ from the footer's checksum, or it is missing
  | 'SNAPSHOT_HEAD'            // the state has no head, or the head block in the file does not match it
  | 'SNAPSHOT_HEADERS'         // the consensus-change headers are missing or forged, or do not lead to the snapshot's producers
  | 'SNAPSHOT_SIGNATURES'      // a signature fails, or too few producers signed
  | 'SNAPSHOT_OTHER_CHAIN'     // the database holds another chain
  | 'SNAPSHOT_NOT_NEWER'       // the database is already at or past the snapshot's block
  | 'SNAPSHOT_BUSY'            // a snapshot from a peer came while a block was being applied or produced
  | 'SNAPSHOT_TOO_LARGE'       // a snapshot from a peer holds more rows than a node takes (snapshot-transfer.ts)
  | 'SNAPSHOT_NONE'            // create-snapshot found no signed snapshot with its state kept
  | 'SNAPSHOT_NO_KEY';         // a --sign key is not the key of a current producer

/** A snapshot could not be made or loaded; the message says why and nothing was changed. */
export class SnapshotError extends TsibaseError {
  declare readonly code: SnapshotErrorCode;

  constructor(code: SnapshotErrorCode, message: string) {
    super(code, message);
  }
}
