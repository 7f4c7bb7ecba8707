// Runs the tsibase CLI as a child process, as a user runs it against a node.
import { spawn } from 'node:child_process';
import { BIN } from './node-process.js';

export interface CliRun { status: number | null; stdout: string; stderr: string }

/**
 * Runs `tsibase <args>` against the node at `api` (added as `-a`, except for `keys`, which needs
 * no node), with `stdin` as its input; asynchronous, since the node under test is a child too.
 */
export function runCli(api: string, args: string[], stdin?: string): Promise<CliRun> {
  const node = args[0] === 'keys' ? [] : ['-a', api];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args, ...node], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}
