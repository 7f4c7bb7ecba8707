// `tsibase/testing`: what a service author's tests import. TestChain runs services in-process;
// ServiceCodec (host-api's) packs their arguments and unpacks results and events by the schema
// their build writes.
export { TestChain, type ActionInput, type EmittedEvent, type RunOptions, type RunResult } from './test-chain.js';
export { ServiceCodec, type ServiceSchema } from '../../host-api/client/service-codec.js';
