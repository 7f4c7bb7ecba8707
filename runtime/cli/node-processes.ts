import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { TsibaseError } from '../../host-api/errors.js';
import { httpRequest } from './client.js';

// `tsibase node` processes that a command runs on this machine (`tsibase testnet`): each a
// process of its own, as an operator would start it, its output in <dir>/node.log, stopped
// with SIGTERM as Ctrl-C stops a node.

/** Where a node process writes its output (appended across starts). */
export const NODE_LOG = 'node.log';

/** How often a node's admin API is asked while waiting on it. */
const POLL_MS = 250;

export interface NodeProcess {
  readonly name: string;
  readonly dir: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** Resolves with the exit code (or the signal) when the process ends. */
  readonly exited: Promise<string>;
}

/** Starts `tsibase node <dir> <args>` (this process's own tsibase; `env` added to its environment), its output appended to <dir>/node.log. */
export function startNodeProcess(name: string, dir: string, port: number, args: readonly string[], env: NodeJS.ProcessEnv = {}): NodeProcess {
  const log = openSync(join(dir, NODE_LOG), 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [process.argv[1]!, 'node', dir, ...args], { stdio: ['ignore', log, log], env: { ...process.env, ...env } });
  } finally {
    closeSync(log);
  }
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? String(code))));
  return { name, dir, port, process: child, exited };
}

/** The last lines of a node's log, for a failure report. */
export function logTail(node: NodeProcess, lines = 15): string {
  try {
    return readFileSync(join(node.dir, NODE_LOG), 'utf8').trimEnd().split('\n').slice(-lines).map((l) => `    ${l}`).join('\n');
  } catch {
    return '    (no log)';
  }
}

/** The admin API of a node on this machine (admins are recognised by address: loopback is one). */
export async function adminJson(node: NodeProcess, path: string): Promise<unknown> {
  const r = await httpRequest(`http://127.0.0.1:${node.port}${path}`);
  if (r.status !== 200) throw new TsibaseError('CLI_NODE_ERROR', `${node.name} ${path}: ${r.status} ${r.text()}`);
  return r.json();
}

/** A figure of the node's metrics (/native/admin/metrics). */
export async function metricOf(node: NodeProcess, name: string): Promise<number> {
  const r = await httpRequest(`http://127.0.0.1:${node.port}/native/admin/metrics`);
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(r.text());
  if (r.status !== 200 || !m) throw new TsibaseError('CLI_NODE_ERROR', `${node.name} has no metric ${name} (${r.status})`);
  return Number(m[1]);
}

/**
 * Polls `probe` until it gives a value; fails after `timeoutMs` with `what` and the last answer,
 * or at once when one of `nodes` exits (with its log's tail).
 */
export async function waitFor<T>(what: string, nodes: readonly NodeProcess[], probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const dead = nodes.find((n) => n.process.exitCode !== null || n.process.signalCode !== null);
    if (dead) throw new TsibaseError('CLI_NODE_EXITED', `node ${dead.name} exited while waiting until ${what}; its log (${join(dead.dir, NODE_LOG)}) ends:\n${logTail(dead)}`);
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() > deadline) throw new TsibaseError('CLI_TIMEOUT', `timed out waiting until ${what}${last ? ` (last: ${last})` : ''}`);
    await delay(POLL_MS);
  }
}

/** Stops the nodes (SIGTERM, as Ctrl-C does) and waits until every process has ended. */
export async function stopNodes(nodes: readonly NodeProcess[]): Promise<void> {
  for (const node of nodes) if (node.process.exitCode === null && node.process.signalCode === null) node.process.kill('SIGTERM');
  await Promise.all(nodes.map((n) => n.exited));
}
