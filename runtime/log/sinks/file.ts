// The file logger: one record per line, rotation by size and time, deletion of the oldest log
// files by count and total size (docs/administration.md §2 "File logger fields", §8.2). All file I/O is
// synchronous, so records reach the file in logging order, a rotation never splits or repeats
// one, and a reconfiguration takes effect between two records.

import { closeSync, fstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FileSettings } from '../config.js';
import type { LogFileInfo } from '../file-names.js';
import type { LogSink, SinkEnvironment } from './sink.js';

// Unflushed records are written once they reach this size or after this delay.
const BUFFER_LIMIT_BYTES = 64 * 1024;
const FLUSH_DELAY_MS = 500;
const MAX_TIMER_MS = 2 ** 31 - 1;

export class FileSink implements LogSink<FileSettings> {
  private fd: number | undefined;
  private path = '';
  /** Bytes of the current file, buffered records included. */
  private size = 0;
  /** The %N of the current file. */
  private counter: number;
  private openedAt = 0;
  private rotationDue: number | undefined;
  private buffered: string[] = [];
  private bufferedBytes = 0;
  /** Bytes of the other log files as last listed; 0 when maxSize is unset. */
  private otherFilesSize = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private rotationTimer: NodeJS.Timeout | undefined;

  constructor(private settings: FileSettings, private readonly environment: SinkEnvironment) {
    this.counter = this.nextCounter();
    this.open('a');
  }

  write(text: string): void {
    if (this.fd === undefined && !this.open('a')) return;
    const line = text + '\n';
    const bytes = Buffer.byteLength(line);
    this.rotateIfDue();
    const { rotationSize } = this.settings;
    // Rotating before the record keeps every file within rotationSize unless one record is larger.
    if (rotationSize !== undefined && this.size > 0 && this.size + bytes > rotationSize) this.rotate();
    if (this.fd === undefined) return;
    this.buffered.push(line);
    this.bufferedBytes += bytes;
    this.size += bytes;
    if (this.settings.flush || this.bufferedBytes >= BUFFER_LIMIT_BYTES) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_DELAY_MS).unref();
    const { maxSize } = this.settings;
    if (maxSize !== undefined && this.otherFilesSize > 0 && this.otherFilesSize + this.size > maxSize) {
      this.deleteOldFiles();
    }
  }

  update(settings: FileSettings): void {
    const reopen = settings.filename.pattern !== this.settings.filename.pattern;
    this.settings = settings;
    if (reopen) {
      this.closeFile();
      this.counter = this.nextCounter();
      this.open('a');
      return;
    }
    this.rotationDue = settings.rotationTime?.next(this.openedAt);
    this.armRotationTimer();
    if (settings.flush) this.flush();
    this.deleteOldFiles();
  }

  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.fd === undefined || this.bufferedBytes === 0) return;
    const data = Buffer.from(this.buffered.join(''));
    this.buffered = [];
    this.bufferedBytes = 0;
    try {
      for (let offset = 0; offset < data.length;) offset += writeSync(this.fd, data, offset);
      this.environment.problems.succeeded();
    } catch (err) {
      this.environment.problems.fail(`writing ${this.path}`, err);
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.rotationTimer);
    this.closeFile();
  }

  private closeFile(): void {
    this.flush();
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch (err) {
      this.environment.problems.fail(`closing ${this.path}`, err);
    }
    this.fd = undefined;
  }

  /** Opens the file for the current counter; false (reported) when that fails. */
  private open(mode: 'a' | 'w'): boolean {
    const now = this.environment.clock.now();
    this.path = this.settings.filename.render(new Date(now), this.counter);
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      this.fd = openSync(this.path, mode);
      this.size = fstatSync(this.fd).size;
    } catch (err) {
      this.environment.problems.fail(`opening ${this.path}`, err);
      return false;
    }
    this.openedAt = now;
    this.rotationDue = this.settings.rotationTime?.next(now);
    this.armRotationTimer();
    this.deleteOldFiles();
    return true;
  }

  private rotate(): void {
    this.closeFile();
    const { target } = this.settings;
    let renamed = false;
    if (target) {
      const targetPath = target.render(new Date(this.environment.clock.now()), this.counter);
      try {
        mkdirSync(dirname(targetPath), { recursive: true });
        renameSync(this.path, targetPath);
        renamed = true;
      } catch (err) {
        this.environment.problems.fail(`renaming ${this.path} to ${targetPath}`, err);
      }
    }
    this.counter++;
    // A new file replaces one of the same name, except the one a failed rename left behind.
    this.open(target && !renamed ? 'a' : 'w');
  }

  private rotateIfDue(): void {
    const now = this.environment.clock.now();
    if (this.rotationDue === undefined || now < this.rotationDue) return;
    if (this.size > 0) {
      this.rotate();
      return;
    }
    // An empty file is kept rather than rotated into an empty log file; its period starts anew.
    this.openedAt = now;
    this.rotationDue = this.settings.rotationTime?.next(now);
    this.armRotationTimer();
  }

  /** Rotates on time even when no record arrives to notice it. */
  private armRotationTimer(): void {
    clearTimeout(this.rotationTimer);
    this.rotationTimer = undefined;
    if (this.rotationDue === undefined) return;
    const delay = Math.min(Math.max(this.rotationDue - this.environment.clock.now(), 0), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      this.rotateIfDue();
      // Rotating re-arms the timer; if it is still this one, the time has not come yet (a clock
      // other than the system's, or a delay capped at MAX_TIMER_MS). A file that failed to open
      // waits for the next record instead.
      if (this.fd !== undefined && this.rotationTimer === timer) this.armRotationTimer();
    }, delay).unref();
    this.rotationTimer = timer;
  }

  /** Every existing log file, the current one included, oldest first. */
  private logFiles(): LogFileInfo[] {
    const { filename, target } = this.settings;
    const byPath = new Map<string, LogFileInfo>();
    for (const file of [...filename.existingFiles(), ...(target?.existingFiles() ?? [])]) byPath.set(file.path, file);
    return [...byPath.values()].sort((a, b) =>
      a.modified - b.modified || (a.counter ?? 0) - (b.counter ?? 0) || (a.path < b.path ? -1 : 1),
    );
  }

  private deleteOldFiles(): void {
    const { maxFiles, maxSize } = this.settings;
    if (maxFiles === undefined && maxSize === undefined) return;
    const others = this.logFiles().filter((file) => file.path !== this.path);
    let otherSize = others.reduce((sum, file) => sum + file.size, 0);
    const overLimit = () =>
      (maxFiles !== undefined && others.length + 1 > maxFiles) || (maxSize !== undefined && otherSize + this.size > maxSize);
    while (others.length > 0 && overLimit()) {
      const oldest = others.shift()!;
      try {
        unlinkSync(oldest.path);
        otherSize -= oldest.size;
      } catch (err) {
        this.environment.problems.fail(`deleting ${oldest.path}`, err);
      }
    }
    this.otherFilesSize = maxSize === undefined ? 0 : otherSize;
  }

  /** One past the highest %N among existing log files, so a restart never reuses a name. */
  private nextCounter(): number {
    const counters = this.logFiles().map((file) => file.counter ?? -1);
    return Math.max(-1, ...counters) + 1;
  }
}
