// Starts `tsibase dev` as a service author runs it, on a free port, and stops it.
import { spawn } from 'node:child_process';
import { BIN } from './node-process.js';
import { waitUntil } from './node-network.js';

export interface Dev {
  /** e.g. http://tsibase.localhost:40123 */
  readonly api: string;
  /** All it printed so far. */
  output(): string;
  /** Waits (`timeoutMs`, 60 s by default) until what it printed after the first `from` characters matches `pattern`; the match. */
  printed(pattern: RegExp, from?: number, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Stops it (SIGTERM) and answers all it printed. */
  stop(): Promise<string>;
}

/** Starts `tsibase dev <args>` (in `cwd`); resolves once it has printed the pages to open (x-admin's last). */
export function startDev(args: string[], cwd?: string): Promise<Dev> {
  const child = spawn(process.execPath, [BIN, 'dev', '-l', '127.0.0.1:0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /^ {2}http:\/\/tsibase\.localhost:(\d+)\/ +the chain's homepage$/m.exec(output);
      // A second resolve (a restarted node prints its pages again) is ignored.
      if (!m || !/the node's admin app$/m.test(output)) return;
      resolve({
        api: `http://tsibase.localhost:${m[1]}`,
        output: () => output,
        printed: (pattern, from = 0, timeoutMs = 60_000) => waitUntil(() => `tsibase dev to print ${pattern} after:\n${output.slice(0, from)}\nit printed:\n${output.slice(from)}`,
          async () => pattern.exec(output.slice(from)) ?? undefined, timeoutMs),
        stop: () => new Promise((done) => {
          if (child.exitCode !== null) return done(output);
          child.once('exit', () => done(output));
          child.kill('SIGTERM');
        }),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`tsibase dev exited (${code}):\n${output}`)));
  });
}
