import { TsibaseError } from '../../host-api/errors.js';

/** A service called abortMessage (or failed a host check on its behalf); unwinds the whole context. */
export class ServiceAbort extends TsibaseError {
  constructor(readonly service: string, readonly abortMessage: string) {
    super('SERVICE_ABORTED', `service '${service}' aborted with message: ${abortMessage}`);
  }
}

export type HostErrorCode =
  | 'HOST_ACCESS_DENIED'   // a database or import the mode, prefix or privileges do not allow
  | 'HOST_BAD_ARGUMENT'    // an out-of-bounds pointer, oversized key, bad db id, malformed action
  | 'HOST_LIMIT'           // too many services, subjective views nested too deep
  | 'SERVICE_NOT_FOUND'    // no code for the called account
  | 'SERVICE_TRAPPED';     // a wasm trap that is not a metering limit

/** The host refused a call of a service; the message names the import and the reason. */
export class HostError extends TsibaseError {
  declare readonly code: HostErrorCode;

  constructor(code: HostErrorCode, message: string) {
    super(code, message);
  }
}
