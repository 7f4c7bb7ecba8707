// A network namespace with nothing but its own loopback (`ip netns`, needs root), for commands
// that must run as a user types them, on the ports they name (8080, …), beside whatever else
// this machine runs on those ports.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { ip } from './net-namespaces.js';

/** Where `ip netns exec` finds the files it puts over /etc for a namespace's commands. */
const NETNS_ETC = '/etc/netns';

export interface CommandRun { status: number | null; stdout: string; stderr: string }

export interface Started {
  readonly process: ChildProcess;
  output(): string;
  readonly exited: Promise<number | null>;
}

export class LoopbackNamespace {
  private constructor(readonly name: string) {}

  /**
   * A namespace of its own; `hosts` are names its commands resolve to its loopback (an
   * /etc/hosts of the namespace's own), as DNS would point them at the machine.
   */
  static create(label: string, hosts: readonly string[] = []): LoopbackNamespace {
    const name = `tsi${label}-${process.pid}`;
    ip(['netns', 'add', name]);
    ip(['-n', name, 'link', 'set', 'lo', 'up']);
    if (hosts.length) {
      mkdirSync(`${NETNS_ETC}/${name}`, { recursive: true });
      writeFileSync(`${NETNS_ETC}/${name}/hosts`, `127.0.0.1 localhost ${hosts.join(' ')}\n::1 localhost\n`);
    }
    return new LoopbackNamespace(name);
  }

  /** Runs a shell command line in the namespace, in `cwd` (`env` added to this process's); its exit status and output. */
  run(line: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CommandRun> {
    return new Promise((resolve) => {
      execFile('ip', ['netns', 'exec', this.name, 'sh', '-c', line], { cwd, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      });
    });
  }

  /** Starts a shell command line that keeps running (`exec`: the process is the command's own, as in a terminal). */
  start(line: string, cwd: string, env: NodeJS.ProcessEnv = {}): Started {
    const child = spawn('ip', ['netns', 'exec', this.name, 'sh', '-c', `exec ${line}`], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { process: child, output: () => output, exited };
  }

  /** Kills whatever still runs in the namespace and deletes it. */
  delete(): void {
    for (const pid of ip(['netns', 'pids', this.name]).split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    ip(['netns', 'delete', this.name]);
    rmSync(`${NETNS_ETC}/${this.name}`, { recursive: true, force: true });
  }
}
