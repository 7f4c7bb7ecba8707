export type { WireHandlers } from './connection.js';
export { NO_BODY } from './request-body.js';
export type { RequestHeaders } from './request-head.js';
export type { ReplyHeaders } from './response-head.js';
export { WireError } from './wire-error.js';
export { WireRequest } from './wire-request.js';
export { WireResponse } from './wire-response.js';
export { WireServer } from './wire-server.js';
