import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LogError } from '../../../../runtime/log/errors.js';
import type { LogRecord } from '../../../../runtime/log/record.js';
import { assertFails } from '../../../lib/assert-error.js';
import { ManualClock, captureLogging, lines, tempDir } from './helpers.js';

function refuses(loggers: unknown, problem: RegExp): void {
  const dir = tempDir();
  assertFails(() => captureLogging(loggers, dir), LogError, 'LOG_BAD_CONFIG', [problem]);
}

test('an invalid config is refused with LOG_BAD_CONFIG naming the logger and the field', () => {
  refuses([], /^loggers: expected an object with one field per logger$/);
  refuses({ a: 'file' }, /^logger 'a': expected an object$/);
  refuses({ a: { type: 'syslog' } }, /^logger 'a': field 'type': expected 'console', 'file', 'local' or 'pipe', not "syslog"$/);
  refuses({ a: {} }, /^logger 'a': field 'type': .* not undefined$/);
  refuses({ a: { type: 'console', filter: 'Severity >' } }, /^logger 'a': field 'filter': filter: expected a value after '>' at offset 10$/);
  refuses({ a: { type: 'console', filter: 3 } }, /^logger 'a': field 'filter': expected a string$/);
  refuses({ a: { type: 'console', format: '{Nope}' } }, /^logger 'a': field 'format': format: unknown attribute 'Nope' at offset 1$/);
  refuses({ a: { type: 'console', format: 7 } }, /^logger 'a': field 'format': format: expected a string or an object$/);
  refuses({ f: { type: 'file' } }, /^logger 'f': field 'filename': required$/);
  refuses({ f: { type: 'file', filename: 'x-%Q.log' } }, /^logger 'f': field 'filename': unsupported field '%Q' at offset 2 of pattern 'x-%Q.log'$/);
  refuses({ f: { type: 'file', filename: '%Y/x.log' } }, /^logger 'f': field 'filename': '%Y\/x\.log': % fields may only appear in the file name/);
  refuses({ f: { type: 'file', filename: 'x.log', target: 'y-%' } }, /^logger 'f': field 'target': a trailing '%' at offset 2/);
  refuses({ f: { type: 'file', filename: 'x.log', rotationSize: 0 } }, /^logger 'f': field 'rotationSize': expected a positive number$/);
  refuses({ f: { type: 'file', filename: 'x.log', maxFiles: '3' } }, /^logger 'f': field 'maxFiles': expected a positive number$/);
  refuses({ f: { type: 'file', filename: 'x.log', maxSize: -1 } }, /^logger 'f': field 'maxSize': expected a positive number$/);
  refuses({ f: { type: 'file', filename: 'x.log', flush: 'yes' } }, /^logger 'f': field 'flush': expected true or false$/);
  refuses({ f: { type: 'file', filename: 'x.log', rotationTime: 'hourly' } }, /^logger 'f': field 'rotationTime': 'hourly' is not an ISO 8601/);
  refuses({ l: { type: 'local' } }, /^logger 'l': field 'path': required$/);
  refuses({ l: { type: 'local', path: 'x'.repeat(120) } }, /^logger 'l': field 'path': .* is longer than a local socket path can be \(107 bytes\)$/);
  refuses({ p: { type: 'pipe', command: '' } }, /^logger 'p': field 'command': required$/);
});

test('fields the logging subsystem does not know are ignored; no loggers is a valid config', async () => {
  const dir = tempDir();
  const { logging } = captureLogging({ c: { type: 'console', color: true } }, dir);
  await logging.close();
  for (const empty of [undefined, null, {}]) await captureLogging(empty, dir).logging.close();
});

test('a refused reconfiguration leaves the running loggers and the accepted config as they were', async () => {
  const dir = tempDir();
  const good = { f: { type: 'file', filename: 'node.log', format: '{Message}' } };
  const { logging } = captureLogging(good, dir);
  logging.info('chain', 'before');
  assert.throws(() => logging.reconfigure({ f: { type: 'file', filename: 'other.log' }, g: { type: 'bogus' } }), /logger 'g'/);
  logging.info('chain', 'after');
  assert.is(logging.loggersConfig, good);
  await logging.close();
  assert.equal(readdirSync(dir), ['node.log']);
  assert.equal(lines(join(dir, 'node.log')), ['before', 'after']);
});

test('log() sends a record to every logger whose filter it passes', async () => {
  const dir = tempDir();
  const { logging } = captureLogging({
    all: { type: 'file', filename: 'all.log', format: '{Message}' },
    problems: { type: 'file', filename: 'problems.log', filter: 'Severity >= warning', format: '{Message}' },
    web: { type: 'file', filename: 'web.log', filter: 'Channel = http and not Response.Status < 400', format: '{Message}' },
  }, dir);
  logging.info('http', 'ok page', { Response: { Status: 200 } });
  logging.warning('http', 'missing page', { Response: { Status: 404 } });
  logging.error('chain', 'fork');
  await logging.close();
  assert.equal(lines(join(dir, 'all.log')), ['ok page', 'missing page', 'fork']);
  assert.equal(lines(join(dir, 'problems.log')), ['missing page', 'fork']);
  assert.equal(lines(join(dir, 'web.log')), ['missing page']);
});

test('records get Host, Process, ProcessId and TimeStamp unless they bring their own', async () => {
  const dir = tempDir();
  const clock = new ManualClock(Date.parse('2024-01-01T00:00:00Z'));
  const { logging } = captureLogging({}, dir, clock);
  const seen: LogRecord[] = [];
  logging.subscribe((record) => seen.push(record));
  logging.info('chain', 'plain');
  logging.log({ Message: 'own', Host: 'elsewhere', TimeStamp: new Date(0) });
  assert.equal(seen, [
    { Host: 'node.example', Process: 'tsibase', ProcessId: 42, TimeStamp: new Date('2024-01-01T00:00:00Z'), Message: 'plain', Severity: 'info', Channel: 'chain' },
    { Host: 'elsewhere', Process: 'tsibase', ProcessId: 42, TimeStamp: new Date(0), Message: 'own' },
  ]);
  await logging.close();
});

test('accepts() is false only when no logger filter and no subscriber could take the record', async () => {
  const { logging } = captureLogging({ console: { type: 'console', filter: 'Severity >= info' } }, tempDir());
  assert.not.ok(logging.accepts('debug', 'http'));
  assert.ok(logging.accepts('info', 'http'));
  logging.reconfigure({ console: { type: 'console', filter: 'Severity >= info' }, tx: { type: 'console', filter: 'Channel = transaction' } });
  assert.ok(logging.accepts('debug', 'transaction'));
  assert.not.ok(logging.accepts('debug', 'http'));
  const stop = logging.subscribe(() => {});
  assert.ok(logging.accepts('debug', 'http'));
  stop();
  assert.not.ok(logging.accepts('debug', 'http'));
  logging.reconfigure({});
  assert.not.ok(logging.accepts('critical', 'chain'));
  await logging.close();
});

test('a console logger writes one line per record to stderr', async () => {
  const dir = tempDir();
  const { logging, stderr } = captureLogging({ console: { type: 'console', format: '{Severity}: {Message}' } }, dir);
  logging.warning('p2p', 'peer lost');
  await logging.close();
  assert.equal(stderr, ['warning: peer lost\n']);
});

test('subscribers get every record until they unsubscribe; a failing one is reported, not thrown', async () => {
  const { logging, stderr } = captureLogging({}, tempDir());
  const seen: string[] = [];
  const stop = logging.subscribe((record) => seen.push(record.Message!));
  logging.subscribe(() => {
    throw new Error('subscriber bug');
  });
  logging.info('chain', 'a');
  stop();
  logging.info('chain', 'b');
  assert.equal(seen, ['a']);
  assert.equal(stderr, ['tsibase: log subscriber failed: subscriber bug\n', 'tsibase: log subscriber failed: subscriber bug\n']);
  await logging.close();
});

test('reconfiguring a same-name same-type logger under load loses and repeats no record', async () => {
  const dir = tempDir();
  const variants = [
    { filter: 'Severity >= debug', format: '{Message}' },
    { filter: 'Message', format: 'v2 {Message}', rotationSize: 5_000 },
    { filter: 'not PeerId and Channel = chain', format: { m: '{Message}' }, flush: true },
    { filter: '', format: '{FrameDec:{Message}}', rotationSize: 4_000, maxFiles: 1000 },
    { format: '{Json}' },
  ];
  const config = (i: number) => ({ load: { type: 'file', filename: 'current.log', target: 'old-%N.log', ...variants[i % variants.length] } });
  const { logging } = captureLogging(config(0), dir);
  const total = 20_000;
  for (let n = 0; n < total; n++) {
    logging.info('chain', `n${n}`);
    if (n % 1500 === 1499) logging.reconfigure(config((n + 1) / 1500));
    if (n % 700 === 0) await nextTurn();
  }
  await logging.close();
  const files = readdirSync(dir).sort((a, b) => order(a) - order(b));
  const numbers = files.flatMap((name) => lines(join(dir, name)).map((line) => Number(/n(\d+)/.exec(line)![1])));
  assert.ok(files.length > 2, 'the load rotated files');
  assert.is(numbers.length, total);
  assert.equal(numbers, Array.from({ length: total }, (_, n) => n));
});

function order(name: string): number {
  return name === 'current.log' ? Infinity : Number(/\d+/.exec(name)![0]);
}

test('a changed filter or format applies from the next record on, exactly', async () => {
  const dir = tempDir();
  const config = (filter: string, format: string) => ({ f: { type: 'file', filename: 'node.log', filter, format } });
  const { logging } = captureLogging(config('', '{Message}'), dir);
  const both = (i: number) => {
    logging.info('chain', `i${i}`);
    logging.warning('chain', `w${i}`);
  };
  both(1);
  logging.reconfigure(config('Severity >= warning', '! {Message}'));
  both(2);
  logging.reconfigure(config('Severity < warning', '{Severity} {Message}'));
  both(3);
  await logging.close();
  assert.equal(lines(join(dir, 'node.log')), ['i1', 'w1', '! w2', 'info i3']);
});

test('a file logger whose filename changes goes on in the new file from the next record', async () => {
  const dir = tempDir();
  const config = (filename: string) => ({ f: { type: 'file', filename, format: '{Message}' } });
  const { logging } = captureLogging(config('first.log'), dir);
  logging.info('chain', 'one');
  logging.reconfigure(config('second.log'));
  logging.info('chain', 'two');
  await logging.close();
  assert.equal([lines(join(dir, 'first.log')), lines(join(dir, 'second.log'))], [['one'], ['two']]);
});

test('a logger whose type changes is closed and a new one opened; a removed one is closed', async () => {
  const dir = tempDir();
  const { logging } = captureLogging({
    x: { type: 'file', filename: 'x.log', format: '{Message}' },
    y: { type: 'file', filename: 'y.log', format: '{Message}' },
  }, dir);
  logging.info('chain', 'first');
  logging.reconfigure({ x: { type: 'pipe', command: 'cat >> x-pipe.txt', format: '{Message}\n' } });
  logging.info('chain', 'second');
  // Closing writes out what the removed and replaced file loggers buffered.
  assert.equal(lines(join(dir, 'x.log')), ['first']);
  assert.equal(lines(join(dir, 'y.log')), ['first']);
  await logging.close();
  assert.equal(readFileSync(join(dir, 'x-pipe.txt'), 'utf8'), 'second\n');
});

test.run();
