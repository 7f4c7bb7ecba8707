import { TsibaseError } from '../../../host-api/errors.js';

/** A request the node cannot take as sent: answered with `status` and the connection closed. */
export class WireError extends TsibaseError {
  constructor(readonly status: number, code: string, message: string) {
    super(code, message);
  }
}

export function badRequest(message: string): WireError {
  return new WireError(400, 'HTTP_BAD_REQUEST', message);
}
