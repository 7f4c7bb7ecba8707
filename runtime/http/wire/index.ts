export { endWithReply } from './closing-socket.js';
export type { WireHandlers } from './connection.js';
export { ConnectionLimit } from './connection-limit.js';
export type { RequestHeaders } from './request-head.js';
export { closingReply, fieldLines, type DefaultFields, type ReplyHeaders } from './response-head.js';
export { WireRequest } from './wire-request.js';
export { WireResponse } from './wire-response.js';
export { DEFAULT_REQUEST_TIMEOUT_MS, WireServer } from './wire-server.js';
