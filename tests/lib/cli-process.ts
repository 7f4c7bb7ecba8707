// Runs the tsibase CLI as a child process, as a user runs it against a node.
import { spawn } from 'node:child_process';
import { BIN } from './node-process.js';

export interface CliRun { status: number | null; stdout: string; stderr: string }

/** Commands that work on files, not on a node's API. */
const LOCAL_COMMANDS = ['keys', 'codegen', 'create-snapshot', 'load-snapshot', 'new-service'];

/**
 * Runs `tsibase <args>` (in `cwd`) against the node at `api` (added as `-a`, except for the
 * commands that need no node), with `stdin` as its input; asynchronous, since the node under test
 * is a child too.
 */
export function runCli(api: string, args: string[], stdin?: string, cwd?: string): Promise<CliRun> {
  const node = LOCAL_COMMANDS.includes(args[0]!) ? [] : ['-a', api];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args, ...node], { stdio: ['pipe', 'pipe', 'pipe'], cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}
