import { TsibaseError } from '../../host-api/errors.js';

export type AdminErrorCode =
  | 'ADMIN_BAD_CONTENT_TYPE'  // 415: a JSON endpoint got another Content-Type
  | 'ADMIN_BAD_JSON'          // 400: the body is not JSON
  | 'ADMIN_BAD_REQUEST'       // 400: the JSON does not have the endpoint's shape
  | 'ADMIN_NOT_FOUND';        // 404: the request names something the node does not have

const STATUS: Record<AdminErrorCode, number> = {
  ADMIN_BAD_CONTENT_TYPE: 415,
  ADMIN_BAD_JSON: 400,
  ADMIN_BAD_REQUEST: 400,
  ADMIN_NOT_FOUND: 404,
};

/** An admin request the node refuses; `status` is the HTTP status the reply carries. */
export class AdminError extends TsibaseError {
  declare readonly code: AdminErrorCode;
  readonly status: number;

  constructor(code: AdminErrorCode, message: string, status = STATUS[code]) {
    super(code, message);
    this.status = status;
  }
}
