// Per-thread statistics (perf report `tasks`) from /proc/<pid>/task/<tid>/: stat for CPU time and
// page faults (proc(5)), comm for the thread's name, io for bytes that went to or came from storage.

import { join } from 'node:path';
import { clockTicksPerSecond } from './clock-ticks.js';
import { MetricsError } from './errors.js';
import { listProcDir, parseDecimal, readProcFile } from './proc-text.js';

export interface ThreadFigures {
  /** The kernel's thread id (the process id for the main thread). */
  readonly id: number;
  /** The pool the thread belongs to: main, libuv, v8, or the thread's own name. */
  readonly group: string;
  /** Accumulated user and system CPU time, microseconds. */
  readonly user: bigint;
  readonly system: bigint;
  /** Minor plus major page faults. */
  readonly pageFaults: bigint;
  /** Bytes fetched from and sent to storage (0 where the kernel does not say). */
  readonly read: bigint;
  readonly written: bigint;
}

export interface ThreadStat {
  readonly id: number;
  readonly minorFaults: bigint;
  readonly majorFaults: bigint;
  /** Clock ticks. */
  readonly userTicks: bigint;
  readonly systemTicks: bigint;
}

// Fields after the command, counted from field 3 (state) as proc(5) numbers them.
const FIELD_OFFSET = 3;
const MINFLT = 10, MAJFLT = 12, UTIME = 14, STIME = 15;

/** Parses a stat line. The command sits in parentheses and may itself hold spaces and ')'. */
export function parseThreadStat(text: string, source = 'stat'): ThreadStat {
  const open = text.indexOf(' (');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new MetricsError('METRICS_BAD_PROC', `${source}: no '(command)' in '${text.trim()}'`);
  const id = Number(parseDecimal(text.slice(0, open), source));
  const fields = text.slice(close + 1).trim().split(/\s+/);
  const field = (n: number): bigint => {
    const value = fields[n - FIELD_OFFSET];
    if (value === undefined) throw new MetricsError('METRICS_BAD_PROC', `${source}: field ${n} is missing`);
    return parseDecimal(value, `${source} field ${n}`);
  };
  return { id, minorFaults: field(MINFLT), majorFaults: field(MAJFLT), userTicks: field(UTIME), systemTicks: field(STIME) };
}

/** read_bytes and write_bytes of an io file; a key the kernel leaves out counts 0. */
export function parseThreadIo(text: string, source = 'io'): { read: bigint; written: bigint } {
  let read = 0n, written = 0n;
  for (const line of text.split('\n')) {
    const [key, value] = line.split(/:\s*/, 2);
    if (key === 'read_bytes') read = parseDecimal(value ?? '', `${source} read_bytes`);
    else if (key === 'write_bytes') written = parseDecimal(value ?? '', `${source} write_bytes`);
  }
  return { read, written };
}

/**
 * A group name that stays the same across threads of one pool: the process's first thread is
 * `main`; Node names libuv's pool `libuv-worker` and V8's platform threads `V8 DefaultWorke[r]`
 * (comm keeps 15 characters); any other thread is grouped by its name.
 */
export function threadGroup(id: number, processId: number, name: string): string {
  if (id === processId) return 'main';
  if (name.startsWith('libuv-worker')) return 'libuv';
  if (name.startsWith('V8 ')) return 'v8';
  return name;
}

export function ticksToMicroseconds(ticks: bigint, ticksPerSecond: number): bigint {
  return (ticks * 1_000_000n) / BigInt(ticksPerSecond);
}

function readThread(taskDir: string, processId: number, ticksPerSecond: number): ThreadFigures | undefined {
  const statFile = join(taskDir, 'stat');
  const stat = readProcFile(statFile);
  const name = readProcFile(join(taskDir, 'comm'));
  // The thread ended after the directory was listed.
  if (stat === undefined || name === undefined) return undefined;
  const figures = parseThreadStat(stat, statFile);
  const ioFile = join(taskDir, 'io');
  const io = readProcFile(ioFile);
  return {
    id: figures.id,
    group: threadGroup(figures.id, processId, name.trim()),
    user: ticksToMicroseconds(figures.userTicks, ticksPerSecond),
    system: ticksToMicroseconds(figures.systemTicks, ticksPerSecond),
    pageFaults: figures.minorFaults + figures.majorFaults,
    ...(io === undefined ? { read: 0n, written: 0n } : parseThreadIo(io, ioFile)),
  };
}

/** Without /proc: the whole process as its main thread, from getrusage (no storage bytes). */
function processAsMainThread(): ThreadFigures {
  const usage = process.resourceUsage();
  return {
    id: process.pid,
    group: 'main',
    user: BigInt(usage.userCPUTime),
    system: BigInt(usage.systemCPUTime),
    pageFaults: BigInt(usage.minorPageFault + usage.majorPageFault),
    read: 0n,
    written: 0n,
  };
}

/** One entry per thread of the process whose /proc directory is `procDir`, in thread id order. */
export function readThreadFigures(procDir: string, processId: number): ThreadFigures[] {
  const taskRoot = join(procDir, 'task');
  const tids = listProcDir(taskRoot);
  if (tids === undefined) return [processAsMainThread()];
  const ticksPerSecond = clockTicksPerSecond();
  return tids
    .map(Number)
    .sort((a, b) => a - b)
    .flatMap((tid) => readThread(join(taskRoot, String(tid)), processId, ticksPerSecond) ?? []);
}
