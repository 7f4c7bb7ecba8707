export { endWithReply } from './closing-socket.js';
export type { WireHandlers } from './connection.js';
export { ConnectionLimit } from './connection-limit.js';
export { parseRequestHead, type RequestHead, type RequestHeaders } from './request-head.js';
export { closingReply, fieldLines, type DefaultFields, type ReplyHeaders } from './response-head.js';
export { WireRequest, type RequestConnection } from './wire-request.js';
export { WireResponse, type ReplySink } from './wire-response.js';
export { DEFAULT_REQUEST_TIMEOUT_MS, WireServer } from './wire-server.js';
