import { createRequire } from 'node:module';
import { basename, dirname } from 'node:path';
import { defaultBundlePath, packagePath } from '../fs/package-paths.js';
import type { Routes } from './routes.js';
import { StaticFiles } from './static-files.js';

// Node-local hosts (docs/http.md §1 step 2): `x-<name>.<root>` labels are reserved for code the node
// runs itself, not the chain, so they work before boot and on every network alike.

/** What a node-local host serves. */
export interface LocalHost extends Routes {
  /** Only admins may use it (docs/http.md §4). What it does not serve, the node answers 404. */
  readonly adminOnly: boolean;
}

/** The package's `admin/` directory: the x-admin web app. */
const ADMIN_APP = packagePath('admin');

/** The directory of an installed package, wherever npm put it (its main module sits at its root). */
function packageDir(name: string): string {
  return dirname(createRequire(import.meta.url).resolve(name));
}

/**
 * x-admin: the node's own admin endpoints (`/config`, `/shutdown`), the x-admin app and,
 * read-only, what the app loads without a build step: host-api and the noble packages it imports
 * (as ES modules under `/lib/…`) and the default bundle (`/default.bundle`).
 */
function adminAppHost(routes: Routes, env: NodeJS.ProcessEnv): LocalHost {
  const bundle = defaultBundlePath(env);
  const bundleDir = new StaticFiles(dirname(bundle));
  const mounts: [prefix: string, files: StaticFiles][] = [
    ['/lib/host-api/', new StaticFiles(packagePath('dist', 'host-api'))],
    ['/lib/noble-hashes/', new StaticFiles(packageDir('@noble/hashes'))],
    ['/lib/noble-curves/', new StaticFiles(packageDir('@noble/curves'))],
  ];
  const app = new StaticFiles(ADMIN_APP);
  return {
    adminOnly: true,
    async serve(req, res, target, path) {
      if (await routes.serve(req, res, target, path)) return true;
      if (path === '/default.bundle') return bundleDir.serve(req, res, `/${basename(bundle)}`);
      const mount = mounts.find(([prefix]) => path.startsWith(prefix));
      return mount ? mount[1].serve(req, res, path.slice(mount[0].length - 1)) : app.serve(req, res, path);
    },
  };
}

/** The node-local hosts every node has, by label; `xAdminRoutes` are the x-admin host's endpoints. */
export function defaultLocalHosts(xAdminRoutes: Routes, env: NodeJS.ProcessEnv = process.env): ReadonlyMap<string, LocalHost> {
  return new Map<string, LocalHost>([['x-admin', adminAppHost(xAdminRoutes, env)]]);
}
