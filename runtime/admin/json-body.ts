import { mediaType } from '../http/media-type.js';
import type { WireRequest } from '../http/wire/index.js';
import { AdminError } from './admin-error.js';

// The admin API speaks JSON (docs/administration.md §1); bodies of another type are a 415 (docs/http.md §3).

export type JsonObject = Record<string, unknown>;

/** The request's JSON body; AdminError for a wrong Content-Type (415) or malformed JSON (400). */
export async function readJson(req: WireRequest): Promise<unknown> {
  if (mediaType(req) !== 'application/json') {
    throw new AdminError('ADMIN_BAD_CONTENT_TYPE', 'Content-Type must be application/json\n');
  }
  const text = new TextDecoder().decode(req.body);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AdminError('ADMIN_BAD_JSON', `the body is not JSON: ${(err as Error).message}`);
  }
}

/** The body as a JSON object; 400 when it is another JSON value. */
export async function readJsonObject(req: WireRequest): Promise<JsonObject> {
  const value = await readJson(req);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AdminError('ADMIN_BAD_REQUEST', 'the body must be a JSON object');
  }
  return value as JsonObject;
}

/** An optional boolean member; 400 naming it when present with another type. */
export function optionalBoolean(body: JsonObject, name: string): boolean | undefined {
  const value = body[name];
  if (value !== undefined && typeof value !== 'boolean') throw new AdminError('ADMIN_BAD_REQUEST', `'${name}' must be true or false`);
  return value;
}
