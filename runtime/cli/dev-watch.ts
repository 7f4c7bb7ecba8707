import { existsSync, watch, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import { TsibaseError } from '../../host-api/errors.js';
import type { Action } from '../../host-api/index.js';
import { compileService, writeCompiledService } from '../build/compile-service.js';
import { sha256 } from '../crypto/sha256.js';
import { ChainClient, type Pushed } from './chain-client.js';
import { deployActions } from '../../host-api/boot/deploy-actions.js';

// `tsibase dev --watch [dir]`: the service project in dir (the layout `tsibase new-service`
// makes) is built on each save and deployed to the dev chain, as `npm run deploy` does. It runs in
// the supervising process, beside the node's: a compile takes seconds of CPU the node's blocks
// must not wait for. The compiler stays loaded and the compile cache (build/.compile-cache) keeps
// the modules of sources seen before, so a rebuild is the compile of what changed.

/** Saves closer together than this are one change (an editor writes a file in several steps). */
const DEBOUNCE_MS = 150;
/** The project's service entry, as `tsibase build` takes it. */
const ENTRY = join('service', 'index.ts');
/** Folders of a project whose files are no source: what the build writes, the packages, the dev chain's data. */
const IGNORED = new Set(['build', 'node_modules', 'tsibase-data']);

export class ServiceWatcher {
  private api: string | undefined;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** A build (and deploy) running; `again` says a save came meanwhile. */
  private building: Promise<void> | undefined;
  private again = false;

  constructor(private readonly projectDir: string, private readonly print: (line: string) => void = (line) => console.log(line)) {}

  /** Watches the project; builds and deploys now, and on each save, once the node is known (nodeAt). */
  start(): void {
    if (!existsSync(join(this.projectDir, ENTRY))) {
      throw new TsibaseError('DEV_WATCH_NO_PROJECT', `${this.projectDir} has no ${ENTRY}: --watch takes a service project's folder ('tsibase new-service <name>' makes one)`);
    }
    this.watcher = watch(this.projectDir, { recursive: true }, (_event, file) => {
      if (file && this.isSource(file)) this.changed();
    });
    this.print(`watch: ${join(this.projectDir, ENTRY)} and the files beside it: each save is built and deployed`);
  }

  /** The dev chain's node answers at `api` (again, after a restart): the service is deployed there. */
  nodeAt(api: string): void {
    this.api = api;
    this.changed();
  }

  stop(): void {
    this.watcher?.close();
    if (this.timer) clearTimeout(this.timer);
  }

  private isSource(file: string): boolean {
    const [top] = file.split(sep);
    return top !== undefined && !IGNORED.has(top) && !top.startsWith('.');
  }

  private changed(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.rebuild();
    }, DEBOUNCE_MS);
  }

  private rebuild(): void {
    if (this.api === undefined) return;
    if (this.building) {
      this.again = true;
      return;
    }
    this.building = this.buildAndDeploy(this.api).finally(() => {
      this.building = undefined;
      if (this.again) {
        this.again = false;
        this.rebuild();
      }
    });
  }

  /** One build and deploy; what went wrong is printed, never thrown: the next save tries again. */
  private async buildAndDeploy(api: string): Promise<void> {
    const started = performance.now();
    const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
    let account: string;
    let code: Uint8Array;
    let schema: string;
    try {
      const compiled = await compileService(ENTRY, {}, this.projectDir, join(this.projectDir, 'build', '.compile-cache'));
      if (!compiled.schema) throw new Error(`${ENTRY} declares no @service class`);
      account = compiled.schema.service;
      writeCompiledService(join(this.projectDir, 'build', `${account}.wasm`), compiled);
      code = compiled.binary;
      schema = JSON.stringify(compiled.schema);
    } catch (err) {
      this.print(`watch: build failed (${seconds()}):\n${(err as Error).message}`);
      return;
    }
    try {
      const { id } = await deploy(api, deployActions(account, code, { create: { insecure: true }, registerServer: true, schema }));
      this.print(`watch: deployed ${account}: code hash ${bytesToHex(sha256(code))} (${code.length} bytes, transaction ${id}, ${seconds()})`);
    } catch (err) {
      this.print(`watch: deploying ${account} failed (${seconds()}): ${(err as Error).message}`);
    }
  }
}

/**
 * Pushes the deploy, once more when the node could not be reached: this process keeps its
 * connection to the node between saves, and the node may close it as idle just as a request goes
 * out. A deploy done twice installs the same code.
 */
async function deploy(api: string, actions: Action[]): Promise<Pushed> {
  const client = new ChainClient(api);
  try {
    return await client.push(actions);
  } catch (err) {
    if (!(err instanceof TsibaseError && err.code === 'HTTP_UNREACHABLE')) throw err;
    return client.push(actions);
  }
}
