import type { Schema } from '../../../host-api/fracpack/index.js';
import { CORE_SCHEMA } from '../../../host-api/types/index.js';
import { CONFIRM_SCHEMA } from '../../chain/commit-proofs.js';

// The bodies of psibase's native P2P messages (docs/p2p.md §2.2), in psibase's member order.
// Member names are camelCase; the wire knows only the order. Block, SignedBlock, Claim, the
// consensus types and StateChecksum/StateSignature come from CORE_SCHEMA unchanged.
//
// psibase's SequenceNumber and RouteMetric are Struct{value: u16}: a fixed struct of one u16
// packs as that u16, so they are written as plain u16 here.
export const P2P_SCHEMA = {
  ...CORE_SCHEMA,

  // Routing (docs/p2p.md §2.2 "Routing", §A)
  InitMessage: { Object: { version: 'u32' } },
  RoutingEnvelope: { Object: { destination: 'AccountNumber', data: 'bytes' } },
  RouteUpdateMessage: { Object: { producer: 'AccountNumber', seqno: 'u16', metric: 'u16', router: { Option: 'u64' } } },
  RouteSeqnoRequest: { Object: { producer: 'AccountNumber', seqno: 'u16', ttl: 'u16' } },
  RequestRoutesMessage: { Object: {} },

  // Block distribution, sync and snapshots
  ExtendedBlockId: { Object: { id: 'Checksum256', num: 'u32' } },
  HelloRequest: { Object: { xid: 'ExtendedBlockId', committed: 'bool' } },
  BlockMessage: { Object: { block: { FracPack: 'SignedBlock' } } },
  BlockHeaderMessage: { Object: { block: { FracPack: 'SignedBlock' } } },
  StateChecksumMessage: { Object: { blockId: 'Checksum256', state: 'StateChecksum', signature: 'StateSignature' } },
  SnapshotItem: { Object: { key: 'bytes', value: 'bytes' } },
  /** `db` is a DbId: service = 0, native = 2. */
  SnapshotPartMessage: {
    Object: { blockId: 'Checksum256', db: 'u32', lowKey: 'bytes', highKey: 'bytes', rows: { List: 'SnapshotItem' } },
  },
  SnapshotVerifyMessage: { Object: { blockId: 'Checksum256', hash: 'StateChecksum', signatures: { List: 'StateSignature' } } },
  WasmProducerMessage: { Object: { data: 'bytes', producer: 'AccountNumber', signer: 'Claim' } },

  // CFT
  ConfirmMessage: { Object: { term: 'u32', followerId: 'AccountNumber', headNum: 'u32', signer: 'Claim' } },
  RequestVoteRequest: {
    Object: { term: 'u32', candidateId: 'AccountNumber', lastLogIndex: 'u32', lastLogTerm: 'u32', signer: 'Claim' },
  },
  RequestVoteResponse: {
    Object: { term: 'u32', candidateId: 'AccountNumber', voterId: 'AccountNumber', voteGranted: 'bool', signer: 'Claim' },
  },

  // BFT. PrepareMessage, CommitMessage, ProducerConfirm and BlockConfirm (the content of
  // SignedBlock.auxConsensusData) are the formats of a block's commit proof (chain/commit-proofs.ts).
  ...CONFIRM_SCHEMA,
  ViewChangeMessage: {
    Object: {
      term: 'u32',
      producer: 'AccountNumber',
      signer: 'Claim',
      bestPrepared: 'Checksum256',
      bestPreparedTerm: 'u32',
      prepares: { List: 'ProducerConfirm' },
      nextPrepares: { Option: { List: 'ProducerConfirm' } },
    },
  },
  RequestViewMessage: { Object: {} },
} as const satisfies Schema;
