export { blockId, blockNumOfId, blockSuffix } from './block-id.js';
export { merkleLeaf, merkleRoot, merkleRootOfLeaves } from './merkle.js';
export { DO_NOT_BROADCAST, milestoneBlockIndex, recentBlockIndex, taposReference, type TaposReference } from './tapos.js';
export { KEY_VERIFY_SERVICE, keySignedTransaction, signPackedTransaction, signTransaction } from './sign.js';
export { loginAction } from './login-action.js';
