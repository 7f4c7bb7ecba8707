// Starts a real `tsibase node` process on a free port for integration tests, and stops it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeConfigFile } from '../../runtime/config/config-file.js';

export interface RunningNode {
  readonly process: ChildProcess;
  /** e.g. http://tsibase.localhost:40123 */
  readonly api: string;
  /** The port of `api`, e.g. '40123'. */
  readonly port: string;
  /** All the process printed so far (its console log goes to stderr). */
  output(): string;
  stop(): Promise<void>;
}

/** Creates the node directory `<dir>/<name>` with `config` as its config.json; returns its path. */
export function configuredNodeDir(dir: string, name: string, config: object): string {
  const nodeDir = join(dir, name);
  mkdirSync(nodeDir, { recursive: true });
  writeConfigFile(nodeDir, config);
  return nodeDir;
}

/** The CLI entry point, bin/tsibase.js. */
export const BIN = join(process.cwd(), 'bin', 'tsibase.js');

/** Starts a node on `dir` with `args`, listening on a free loopback port; `env` adds variables to the process's environment. */
export function startNode(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<RunningNode> {
  return startNodeProcess(dir, ['-l', '127.0.0.1:0', ...args], env);
}

/**
 * Starts `tsibase node <dir> <args>` as given (without `-l` it listens where `<dir>/config.json`
 * says) and resolves once it is started: `api` is the first http or https listener it reports.
 * `launcher` is a command that runs it (`ip netns exec <name>` runs it in a network namespace);
 * it must exec the node in its own process, so that the child is the node's supervisor.
 */
export function startNodeProcess(dir: string, args: string[], env: NodeJS.ProcessEnv = {}, launcher: readonly string[] = []): Promise<RunningNode> {
  // TSIBASE_NODE_FLAGS passes flags to the node process's Node.js (e.g. --cpu-prof for profiling).
  const flags = (process.env.TSIBASE_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const [command, ...commandArgs] = [...launcher, process.execPath, ...flags, BIN, 'node', dir, ...args];
  const child = spawn(command!, commandArgs, {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (https?:\/\/[^\s]+)/.exec(output);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      resolve({
        process: child,
        api: m[1]!,
        port: new URL(m[1]!).port,
        output: () => output,
        stop: () => new Promise((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
        }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`node exited (${code}) before listening:\n${output}`));
    });
  });
}

/**
 * The pid of the process running the node: `tsibase node` supervises a child process (so a
 * restart gets a new process image), which is the one doing the work (Linux /proc).
 */
export function nodeProcessId(node: RunningNode): number {
  const supervisor = node.process.pid!;
  const children = readFileSync(`/proc/${supervisor}/task/${supervisor}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  if (children.length !== 1) throw new Error(`expected one node process under ${supervisor}, found ${children.length}`);
  return Number(children[0]);
}
