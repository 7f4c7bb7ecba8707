import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock, captureLogging, lines, sortedFiles, tempDir, waitFor } from './helpers.js';

// Every record renders to exactly 10 bytes with its newline.
const TEN_BYTES = '{Message}';
const record = (i: number) => `rec-${String(i).padStart(5, '0')}`;

function fileLogger(fields: Record<string, unknown>): unknown {
  return { file: { type: 'file', format: TEN_BYTES, ...fields } };
}

test('a file logger writes one formatted record per line, relative to the node directory', async () => {
  const dir = tempDir();
  const { logging } = captureLogging({ app: { type: 'file', filename: 'logs/node.log', format: '{Severity} {Message}' } }, dir);
  logging.info('chain', 'first');
  logging.error('http', 'second');
  await logging.close();
  assert.equal(lines(join(dir, 'logs/node.log')), ['info first', 'error second']);
});

test('the default file format is one JSON record per line', async () => {
  const dir = tempDir();
  const clock = new ManualClock(Date.parse('2024-01-01T00:00:00Z'));
  const { logging } = captureLogging({ app: { type: 'file', filename: 'node.log' } }, dir, clock);
  logging.info('p2p', 'hello', { PeerId: 3 });
  await logging.close();
  assert.equal(lines(join(dir, 'node.log')), [
    '{"Message":"hello","Host":"node.example","Process":"tsibase","ProcessId":42,"TimeStamp":"2024-01-01T00:00:00.000Z","Severity":"info","Channel":"p2p","PeerId":3}',
  ]);
});

test('an existing file is appended to when the logger starts', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'node.log'), 'old-line\n');
  const { logging } = captureLogging(fileLogger({ filename: 'node.log' }), dir);
  logging.info('chain', record(1));
  await logging.close();
  assert.equal(lines(join(dir, 'node.log')), ['old-line', record(1)]);
});

test('rotationSize: a record that would take the file past it goes to a new file; target renames with %N', async () => {
  const dir = tempDir();
  const { logging } = captureLogging(fileLogger({ filename: 'current.log', target: 'old-%N.log', rotationSize: 35 }), dir);
  for (let i = 0; i < 10; i++) logging.info('chain', record(i));
  await logging.close();
  assert.equal(sortedFiles(dir), ['current.log', 'old-0.log', 'old-1.log', 'old-2.log']);
  for (const name of ['old-0.log', 'old-1.log', 'old-2.log']) assert.is(statSync(join(dir, name)).size, 30);
  const all = ['old-0.log', 'old-1.log', 'old-2.log', 'current.log'].flatMap((name) => lines(join(dir, name)));
  assert.equal(all, Array.from({ length: 10 }, (_, i) => record(i)));
});

test('without target the file is closed and the next one opened from the filename pattern (%N counts files)', async () => {
  const dir = tempDir();
  const { logging } = captureLogging(fileLogger({ filename: 'node-%N.log', rotationSize: 20 }), dir);
  for (let i = 0; i < 5; i++) logging.info('chain', record(i));
  await logging.close();
  assert.equal(sortedFiles(dir), ['node-0.log', 'node-1.log', 'node-2.log']);
  assert.equal(lines(join(dir, 'node-2.log')), [record(4)]);
});

test('%N continues after the highest counter already on disk, so a restart overwrites nothing', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'old-7.log'), 'kept\n');
  writeFileSync(join(dir, 'old-x.log'), 'not a log file of this pattern\n');
  const { logging } = captureLogging(fileLogger({ filename: 'current.log', target: 'old-%N.log', rotationSize: 10 }), dir);
  logging.info('chain', record(1));
  logging.info('chain', record(2));
  await logging.close();
  assert.equal(sortedFiles(dir), ['current.log', 'old-7.log', 'old-8.log', 'old-x.log']);
  assert.equal(lines(join(dir, 'old-7.log')), ['kept']);
  assert.equal(lines(join(dir, 'old-8.log')), [record(1)]);
});

test('strftime fields in target name the rotated file by the time of rotation (UTC)', async () => {
  const dir = tempDir();
  const clock = new ManualClock(Date.parse('2024-02-03T04:05:06Z'));
  const { logging } = captureLogging(fileLogger({ filename: 'current.log', target: 'archive/%y%m%d-%H%M%S.log', rotationSize: 10 }), dir, clock);
  logging.info('chain', record(1));
  clock.advance(61_000);
  logging.info('chain', record(2));
  await logging.close();
  assert.equal(sortedFiles(join(dir, 'archive')), ['240203-040607.log']);
  assert.equal(lines(join(dir, 'archive/240203-040607.log')), [record(1)]);
});

test('strftime fields in filename name each new file by the time it is opened', async () => {
  const dir = tempDir();
  const clock = new ManualClock(Date.parse('2024-02-03T23:00:00Z'));
  const { logging } = captureLogging(fileLogger({ filename: 'node-%Y-%m-%d.log', rotationTime: '00:00' }), dir, clock);
  logging.info('chain', record(1));
  clock.set('2024-02-04T00:00:00Z');
  logging.info('chain', record(2));
  await logging.close();
  assert.equal(sortedFiles(dir), ['node-2024-02-03.log', 'node-2024-02-04.log']);
  assert.equal(lines(join(dir, 'node-2024-02-04.log')), [record(2)]);
});

/** Logs one record at each time and returns the records of each log file, oldest first. */
async function recordsPerFile(rotationTime: string, start: string, times: string[]): Promise<string[][]> {
  const dir = tempDir();
  const clock = new ManualClock(Date.parse(start));
  const { logging } = captureLogging(fileLogger({ filename: 'current.log', target: 'old-%N.log', rotationTime }), dir, clock);
  times.forEach((time, i) => {
    clock.set(time);
    logging.info('chain', record(i));
  });
  await logging.close();
  const rotated = sortedFiles(dir).filter((name) => name.startsWith('old-')).sort((a, b) => parseInt(a.slice(4)) - parseInt(b.slice(4)));
  return [...rotated, 'current.log'].map((name) => lines(join(dir, name)));
}

test('rotationTime duration: rotates that long after the file was opened', async () => {
  const files = await recordsPerFile('PT1H', '2024-01-01T10:00:00Z', [
    '2024-01-01T10:00:00Z', '2024-01-01T10:59:59.999Z', '2024-01-01T11:00:00Z', '2024-01-01T11:30:00Z', '2024-01-01T12:00:00Z',
  ]);
  assert.equal(files, [[record(0), record(1)], [record(2), record(3)], [record(4)]]);
});

test('rotationTime fractional duration PT0.5S', async () => {
  const files = await recordsPerFile('PT0.5S', '2024-01-01T10:00:00Z', [
    '2024-01-01T10:00:00.000Z', '2024-01-01T10:00:00.400Z', '2024-01-01T10:00:00.500Z', '2024-01-01T10:00:00.900Z',
  ]);
  assert.equal(files, [[record(0), record(1)], [record(2), record(3)]]);
});

test('rotationTime time of day: rotates daily at that time', async () => {
  const files = await recordsPerFile('12:00:00', '2024-01-01T10:00:00Z', [
    '2024-01-01T11:59:59Z', '2024-01-01T12:00:00Z', '2024-01-02T11:00:00Z', '2024-01-02T12:00:01Z',
  ]);
  assert.equal(files, [[record(0)], [record(1), record(2)], [record(3)]]);
});

test('rotationTime ---DDThh:mm: rotates monthly', async () => {
  const files = await recordsPerFile('---15T00:00', '2024-01-01T00:00:00Z', [
    '2024-01-14T23:00:00Z', '2024-01-15T00:00:00Z', '2024-02-14T00:00:00Z', '2024-02-15T00:00:00Z',
  ]);
  assert.equal(files, [[record(0)], [record(1), record(2)], [record(3)]]);
});

test('rotationTime --MM-DDThh:mm:ss: rotates annually', async () => {
  const files = await recordsPerFile('--01-01T00:00:00', '2024-06-01T00:00:00Z', [
    '2024-12-31T23:59:59Z', '2025-01-01T00:00:00Z', '2025-12-01T00:00:00Z', '2026-01-01T00:00:01Z',
  ]);
  assert.equal(files, [[record(0)], [record(1), record(2)], [record(3)]]);
});

test('rotationTime R/start/duration: rotates at start + k·duration', async () => {
  const files = await recordsPerFile('R/2024-01-01T00:00:00Z/PT6H', '2024-01-01T01:00:00Z', [
    '2024-01-01T05:59:00Z', '2024-01-01T06:00:00Z', '2024-01-01T11:00:00Z', '2024-01-01T19:00:00Z',
  ]);
  assert.equal(files, [[record(0)], [record(1), record(2)], [record(3)]]);
});

test('an empty file is not rotated into an empty log file when its time comes', async () => {
  const files = await recordsPerFile('PT1H', '2024-01-01T10:00:00Z', ['2024-01-01T13:30:00Z', '2024-01-01T14:00:00Z', '2024-01-01T14:30:00Z']);
  // The file stayed empty past three periods; its period restarted when the first record came.
  assert.equal(files, [[record(0), record(1)], [record(2)]]);
});

test('a rotation comes due on its own, without a record arriving to notice it', async () => {
  const dir = tempDir();
  const { logging } = captureLogging(fileLogger({ filename: 'current.log', target: 'old-%N.log', rotationTime: 'PT0.05S' }), dir);
  logging.info('chain', record(1));
  await waitFor(() => existsSync(join(dir, 'old-0.log')), 'the timed rotation');
  await logging.close();
  assert.equal(lines(join(dir, 'old-0.log')), [record(1)]);
  assert.is(readFileSync(join(dir, 'current.log'), 'utf8'), '');
});

test('rotation triggers when either rotationSize or rotationTime is reached', async () => {
  const dir = tempDir();
  const clock = new ManualClock(Date.parse('2024-01-01T00:00:00Z'));
  const { logging } = captureLogging(fileLogger({ filename: 'current.log', target: 'old-%N.log', rotationSize: 20, rotationTime: 'PT1M' }), dir, clock);
  logging.info('chain', record(0));
  logging.info('chain', record(1));
  logging.info('chain', record(2)); // size
  clock.advance(60_000);
  logging.info('chain', record(3)); // time
  await logging.close();
  assert.equal(lines(join(dir, 'old-0.log')), [record(0), record(1)]);
  assert.equal(lines(join(dir, 'old-1.log')), [record(2)]);
  assert.equal(lines(join(dir, 'current.log')), [record(3)]);
});

test('maxFiles: the oldest log files are deleted so at most maxFiles remain, the current one included', async () => {
  const dir = tempDir();
  const { logging } = captureLogging(fileLogger({ filename: 'current.log', target: 'old-%N.log', rotationSize: 10, maxFiles: 3 }), dir);
  for (let i = 0; i < 8; i++) logging.info('chain', record(i));
  await logging.close();
  assert.equal(sortedFiles(dir), ['current.log', 'old-5.log', 'old-6.log']);
  assert.equal(lines(join(dir, 'old-5.log')), [record(5)]);
  assert.equal(lines(join(dir, 'current.log')), [record(7)]);
});

test('maxSize: the oldest log files are deleted while all of them together exceed maxSize', async () => {
  const dir = tempDir();
  const { logging } = captureLogging(fileLogger({ filename: 'current.log', target: 'old-%N.log', rotationSize: 20, maxSize: 45 }), dir);
  for (let i = 0; i < 9; i++) logging.info('chain', record(i));
  await logging.close();
  // Files of 20, 20 and 10 bytes would be 50; the oldest goes.
  assert.equal(sortedFiles(dir), ['current.log', 'old-3.log']);
  assert.equal([...lines(join(dir, 'old-3.log')), ...lines(join(dir, 'current.log'))], [record(6), record(7), record(8)]);
});

test('deletion counts every file matching the patterns, including ones from earlier runs', async () => {
  const dir = tempDir();
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, `node-${i}.log`), 'x\n');
  writeFileSync(join(dir, 'unrelated.txt'), 'kept\n');
  const { logging } = captureLogging(fileLogger({ filename: 'node-%N.log', maxFiles: 2 }), dir);
  logging.info('chain', record(0));
  await logging.close();
  assert.equal(sortedFiles(dir), ['node-4.log', 'node-5.log', 'unrelated.txt']);
});

test('flush: true writes each record to the file at once', async () => {
  const dir = tempDir();
  const { logging } = captureLogging(fileLogger({ filename: 'node.log', flush: true }), dir);
  logging.info('chain', record(1));
  assert.equal(lines(join(dir, 'node.log')), [record(1)]);
  logging.info('chain', record(2));
  assert.equal(lines(join(dir, 'node.log')), [record(1), record(2)]);
  await logging.close();
});

test('without flush records are buffered until flushed, rotated or closed', async () => {
  const dir = tempDir();
  const { logging } = captureLogging(fileLogger({ filename: 'current.log', target: 'old-%N.log', rotationSize: 30 }), dir);
  logging.info('chain', record(1));
  assert.is(readFileSync(join(dir, 'current.log'), 'utf8'), '');
  logging.flush();
  assert.equal(lines(join(dir, 'current.log')), [record(1)]);
  logging.info('chain', record(2));
  logging.info('chain', record(3));
  logging.info('chain', record(4)); // rotation writes the buffer out first
  assert.equal(lines(join(dir, 'old-0.log')), [record(1), record(2), record(3)]);
  await logging.close();
  assert.equal(lines(join(dir, 'current.log')), [record(4)]);
});

test('buffered records are written when the process exits without closing Logging', () => {
  const dir = tempDir();
  const loggingModule = new URL('../../../../runtime/log/logging.js', import.meta.url).href;
  const script = `
    const { Logging } = await import(${JSON.stringify(loggingModule)});
    const logging = new Logging({ f: { type: 'file', filename: 'node.log', format: '{Message}' } }, { directory: ${JSON.stringify(dir)} });
    logging.info('chain', 'last words');
    process.exit(0);`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script]);
  assert.equal(lines(join(dir, 'node.log')), ['last words']);
});

test('a file that cannot be opened is reported once on stderr and logging goes on without throwing', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'blocker'), '');
  const { logging, stderr } = captureLogging({
    broken: { type: 'file', filename: 'blocker/node.log' },
    good: { type: 'file', filename: 'good.log', format: '{Message}' },
  }, dir);
  for (let i = 0; i < 3; i++) logging.info('chain', record(i));
  await logging.close();
  assert.is(stderr.length, 1);
  assert.match(stderr[0], /^tsibase: logger 'broken': opening .*blocker\/node\.log: EEXIST/);
  assert.equal(lines(join(dir, 'good.log')), [record(0), record(1), record(2)]);
  assert.not.ok(existsSync(join(dir, 'blocker', 'node.log')));
});

test.run();
