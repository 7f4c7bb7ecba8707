import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { StaticFiles } from './static-files.js';

// Node-local hosts (http.md §1 step 2): `x-<name>.<root>` labels are reserved for code the node
// runs itself, not the chain, so they work before boot and on every network alike.

/** What a node-local host serves. */
export interface LocalHost {
  /** Only admins may use it (http.md §4). */
  readonly adminOnly: boolean;
  /** Answers the request; false when it has nothing for it (the node then answers 404). */
  serve(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
}

/** The package's `admin/` directory: the x-admin web app. */
const ADMIN_APP = fileURLToPath(new URL('../../../admin', import.meta.url));

/** The node-local hosts every node has, by label. */
export function defaultLocalHosts(): ReadonlyMap<string, LocalHost> {
  const adminApp = new StaticFiles(ADMIN_APP);
  return new Map<string, LocalHost>([
    ['x-admin', { adminOnly: true, serve: (req, res, path) => adminApp.serve(req, res, path) }],
  ]);
}

