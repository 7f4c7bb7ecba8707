// The pipe logger: a shell command started in the node's directory, as popen(3) would, with
// records written to its stdin exactly as formatted (the format supplies any framing). A new
// command replaces the old one between two records; the old one gets EOF and, if it is still
// running after a grace period, SIGTERM.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { PipeSettings } from '../config.js';
import type { LogSink, SinkEnvironment } from './sink.js';

// A command that stops reading must not make the node buffer without bound; past this many
// unwritten bytes records are dropped (and reported) until it catches up.
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

export class PipeSink implements LogSink<PipeSettings> {
  private command: string;
  private child: ChildProcess;
  private closing = false;
  /** Commands that were replaced or closed and have not exited yet. */
  private readonly retiring = new Set<Promise<void>>();

  constructor(settings: PipeSettings, private readonly environment: SinkEnvironment) {
    this.command = settings.command;
    this.child = this.start();
  }

  write(text: string): void {
    const stdin = this.child.stdin;
    if (!stdin?.writable) {
      this.environment.problems.fail(`writing to '${this.command}'`, 'the command is not running');
      return;
    }
    if (stdin.writableLength > MAX_PENDING_BYTES) {
      this.environment.problems.fail(`writing to '${this.command}'`, 'the command is not reading; records are dropped');
      return;
    }
    stdin.write(text);
  }

  update(settings: PipeSettings): void {
    if (settings.command === this.command) return;
    this.retire(this.child);
    this.command = settings.command;
    this.child = this.start();
  }

  async close(): Promise<void> {
    this.closing = true;
    this.retire(this.child);
    await Promise.all(this.retiring);
  }

  private start(): ChildProcess {
    const command = this.command;
    const child = spawn(command, {
      shell: true,
      cwd: this.environment.directory,
      stdio: ['pipe', 'inherit', 'inherit'],
    });
    child.on('error', (err) => this.environment.problems.fail(`running '${command}'`, err));
    // EPIPE and the like once the command is gone; the exit handler below reports that.
    child.stdin!.on('error', () => {});
    child.on('exit', (code, signal) => {
      if (child === this.child && !this.closing) {
        this.environment.problems.fail(`running '${command}'`, `exited early (${signal ?? `status ${code}`})`);
      }
    });
    this.environment.problems.succeeded();
    return child;
  }

  /** EOF now, SIGTERM after the grace period; resolves when the command has exited. */
  private retire(child: ChildProcess): void {
    const exited = child.exitCode !== null || child.signalCode !== null || child.pid === undefined
      ? Promise.resolve()
      : once(child, 'exit').then(() => undefined, () => undefined);
    const timer = setTimeout(() => child.kill('SIGTERM'), this.environment.closeGraceMs);
    const done = exited.then(() => {
      clearTimeout(timer);
      this.retiring.delete(done);
    });
    this.retiring.add(done);
    child.stdin?.end();
  }
}
