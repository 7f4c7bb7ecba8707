import { fork } from 'node:child_process';

// `shutdown` with `restart` and without `soft` gives the node a new process image (docs/administration.md §4.1
// rule 1). Node.js cannot exec itself, so `tsibase node` runs the node in a child process and
// starts a new child when the old one exits asking for a restart; the supervisor's own pid stays.

/** Set in the child's environment: the node runs here instead of supervising. */
export const SUPERVISED_ENV = 'TSIBASE_SUPERVISED';
/** Set for a restarted child: the listeners (JSON) the previous one had bound, to keep their ports. */
export const RESTART_LISTEN_ENV = 'TSIBASE_RESTART_LISTEN';

/**
 * V8 flags of the node process. A transaction leaves many short-lived objects (codec output,
 * traces, key strings); a 32 MiB young generation (V8's default is 16) lets most die there
 * between scavenges: about 13% more transfers/s in bench/chain. Flags given to `tsibase` come
 * after, so they win.
 */
const NODE_PROCESS_FLAGS = ['--max-semi-space-size=32'];

/** What a child sends its supervisor before it exits to be restarted. */
export interface RestartMessage {
  readonly restart: { readonly listen?: unknown };
}

/**
 * Runs `script argv` in child processes until one exits without asking for a restart; its exit
 * code. `onMessage` hears the children's other messages (`tsibase dev --watch` learns where the
 * node listens).
 */
export function supervise(script: string, argv: readonly string[], onMessage?: (message: unknown) => void): Promise<number> {
  return new Promise((resolve) => {
    let restartListen: string | undefined;
    let stopping = false;
    const signals = ['SIGINT', 'SIGTERM'] as const;
    const start = () => {
      const env: NodeJS.ProcessEnv = { ...process.env, [SUPERVISED_ENV]: '1' };
      if (restartListen !== undefined) env[RESTART_LISTEN_ENV] = restartListen;
      else delete env[RESTART_LISTEN_ENV];
      restartListen = undefined;
      const child = fork(script, argv, { env, stdio: 'inherit', execArgv: [...NODE_PROCESS_FLAGS, ...process.execArgv] });
      // A terminal's Ctrl-C reaches the child too; forwarding again is harmless (it stops once).
      const forward = (signal: NodeJS.Signals) => {
        stopping = true;
        child.kill(signal);
      };
      for (const s of signals) process.on(s, forward);
      child.on('message', (message: RestartMessage) => {
        if (message && typeof message === 'object' && 'restart' in message) restartListen = JSON.stringify(message.restart.listen ?? null);
        else onMessage?.(message);
      });
      child.once('exit', (code, signal) => {
        for (const s of signals) process.off(s, forward);
        if (restartListen !== undefined && !stopping) return start();
        resolve(code ?? (signal ? 1 : 0));
      });
    };
    start();
  });
}
