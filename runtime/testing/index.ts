// `tsibase/testing`: what a service author's tests import. TestChain runs services in-process (a
// booted chain, or single actions);
// ServiceCodec (host-api's) packs their arguments and unpacks results and events by the schema
// their build writes.
export { TestChain, type RunOptions, type RunResult } from './test-chain.js';
export type { ActionInput } from './action-input.js';
export type { BootedChain, PushedTransaction, TestBootOptions, TestChainKeys, TestDeployOptions, TestPushOptions } from './booted-chain.js';
export type { TestHttpReply, TestHttpRequest } from './in-memory-http.js';
export type { ExtraService } from './test-bundle.js';
export type { EmittedEvent } from '../chain/event-log.js';
export { ServiceCodec, type ServiceSchema } from '../../host-api/client/service-codec.js';
