import type { Schema } from '../fracpack/schema.js';

// The core wire types, in psibase's member order (docs/formats.md §6, docs/chain.md §1, docs/http.md §2).
// Built-in names (u8 … u64, string, bytes, Checksum256, AccountNumber, MethodNumber,
// TimePointSec, TimePointUSec) come from the fracpack built-ins.
export const CORE_SCHEMA = {
  Tapos: { Struct: { expiration: 'TimePointSec', refBlockSuffix: 'u32', flags: 'u16', refBlockIndex: 'u8' } },
  Action: { Object: { sender: 'AccountNumber', service: 'AccountNumber', method: 'MethodNumber', rawData: 'bytes' } },
  Claim: { Object: { service: 'AccountNumber', rawData: 'bytes' } },
  Transaction: { Object: { tapos: 'Tapos', actions: { List: 'Action' }, claims: { List: 'Claim' } } },
  SignedTransaction: {
    Object: {
      transaction: { Custom: { type: { FracPack: 'Transaction' }, id: 'hex' } },
      proofs: { List: 'bytes' },
      subjectiveData: { Option: { List: 'bytes' } },
    },
  },
  ServiceMethod: { Object: { service: 'AccountNumber', method: 'MethodNumber' } },

  Producer: { Object: { name: 'AccountNumber', auth: 'Claim' } },
  CftConsensus: { Object: { producers: { List: 'Producer' } } },
  BftConsensus: { Object: { producers: { List: 'Producer' } } },
  ConsensusData: { Variant: { CftConsensus: 'CftConsensus', BftConsensus: 'BftConsensus' } },
  BlockHeaderAuthAccount: { Object: { codeNum: 'AccountNumber', codeHash: 'Checksum256', vmType: 'u8', vmVersion: 'u8' } },
  VMOptions: { Object: { maxMutableGlobalBytes: 'u32', maxPages: 'u32', maxTableElements: 'u32', maxStackBytes: 'u32' } },
  WasmConfig: { Object: { numExecutionMemories: 'u32', vmOptions: 'VMOptions' } },
  Consensus: { Object: { data: 'ConsensusData', services: { List: 'BlockHeaderAuthAccount' }, wasmConfig: 'WasmConfig' } },
  PendingConsensus: { Object: { consensus: 'Consensus', blockNum: 'u32' } },
  JointConsensus: { Object: { current: 'Consensus', next: { Option: 'PendingConsensus' } } },
  BlockHeaderCode: { Object: { vmType: 'u8', vmVersion: 'u8', code: 'bytes' } },
  BlockHeader: {
    Object: {
      previous: 'Checksum256',
      blockNum: 'u32',
      time: 'TimePointUSec',
      producer: 'AccountNumber',
      term: 'u32',
      commitNum: 'u32',
      consensusState: 'Checksum256',
      trxMerkleRoot: 'Checksum256',
      eventMerkleRoot: 'Checksum256',
      newConsensus: { Option: 'Consensus' },
      authCode: { Option: { List: 'BlockHeaderCode' } },
    },
  },
  Block: { Object: { header: 'BlockHeader', transactions: { List: 'SignedTransaction' } } },
  SignedBlock: { Object: { block: 'Block', signature: 'bytes', auxConsensusData: { Option: 'bytes' } } },
  BlockInfo: { Object: { header: 'BlockHeader', blockId: 'Checksum256' } },
  TransactionInfo: { Object: { transactionId: 'Checksum256', signatureHash: 'Checksum256', subjectiveDataHash: 'Checksum256' } },

  GenesisService: { Object: { service: 'AccountNumber', flags: 'u64', vmType: 'u8', vmVersion: 'u8', code: 'bytes' } },
  GenesisActionData: { Object: { memo: 'string', services: { List: 'GenesisService' } } },

  HttpHeader: { Struct: { name: 'string', value: 'string' } },
  HttpRequest: {
    Object: {
      host: 'string',
      method: 'string',
      target: 'string',
      contentType: 'string',
      headers: { List: 'HttpHeader' },
      body: 'bytes',
    },
  },
  HttpReply: { Object: { status: 'u16', contentType: 'string', body: 'bytes', headers: { List: 'HttpHeader' } } },

  ConsoleTrace: { Object: { console: 'string' } },
  EventTrace: { Object: { name: 'string', data: 'bytes' } },
  InnerTraceVariant: { Variant: { ConsoleTrace: 'ConsoleTrace', EventTrace: 'EventTrace', ActionTrace: 'ActionTrace' } },
  InnerTrace: { Object: { inner: 'InnerTraceVariant' } },
  ActionTrace: {
    Object: {
      action: 'Action',
      rawRetval: 'bytes',
      innerTraces: { List: 'InnerTrace' },
      totalTime: 'i64',
      error: { Option: 'string' },
    },
  },
  TransactionTrace: { Object: { actionTraces: { List: 'ActionTrace' }, error: { Option: 'string' } } },
  // A state's checksum and a producer's signature on it: native SnapshotRows and P2P messages (docs/p2p.md §7.2).
  StateChecksum: { Object: { serviceRoot: 'Checksum256', nativeRoot: 'Checksum256' } },
  StateSignature: { Object: { account: 'AccountNumber', claim: 'Claim', rawData: 'bytes' } },
} as const satisfies Schema;
