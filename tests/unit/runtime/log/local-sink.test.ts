import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import unixDgram from 'unix-dgram';
import { captureLogging, tempDir, waitFor } from './helpers.js';

/** A real AF_UNIX SOCK_DGRAM socket bound at `path`, collecting each datagram as one string. */
function receiver(path: string): { messages: string[]; close(): void } {
  const messages: string[] = [];
  const socket = unixDgram.createSocket('unix_dgram', (message) => messages.push(message.toString()));
  socket.bind(path);
  return { messages, close: () => socket.close() };
}

test('a local logger sends each record as one datagram to the socket at path (relative to the node directory)', async () => {
  const dir = tempDir();
  const sock = receiver(join(dir, 'log.sock'));
  const { logging } = captureLogging({ local: { type: 'local', path: 'log.sock', format: '{Syslog:bsd} {Message}\nsecond line' } }, dir);
  logging.info('chain', 'one');
  logging.error('chain', 'two');
  await waitFor(() => sock.messages.length === 2, 'two datagrams');
  await logging.close();
  sock.close();
  assert.match(sock.messages[0], /^<30>\w{3} [ \d]\d \d\d:\d\d:\d\d tsibase\[42\]: one\nsecond line$/);
  assert.match(sock.messages[1], /^<27>.* two\nsecond line$/);
});

test('a local logger without a format sends the record as JSON', async () => {
  const dir = tempDir();
  const sock = receiver(join(dir, 'log.sock'));
  const { logging } = captureLogging({ local: { type: 'local', path: join(dir, 'log.sock') } }, dir);
  logging.info('http', 'json', { Response: { Status: 200 } });
  await waitFor(() => sock.messages.length === 1, 'a datagram');
  await logging.close();
  sock.close();
  const record = JSON.parse(sock.messages[0]);
  assert.equal([record.Message, record.Channel, record.Response], ['json', 'http', { Status: 200 }]);
});

test('records wait for a receiver whose queue is full and arrive complete and in order', async () => {
  const dir = tempDir();
  const sock = receiver(join(dir, 'log.sock'));
  const { logging, stderr } = captureLogging({ local: { type: 'local', path: 'log.sock', format: '{Message}' } }, dir);
  // Sent in one turn of the event loop, far more than the receiver's queue holds.
  for (let i = 0; i < 3000; i++) logging.info('chain', `m${i}`);
  await waitFor(() => sock.messages.length === 3000, 'every datagram');
  await logging.close();
  sock.close();
  assert.equal(sock.messages, Array.from({ length: 3000 }, (_, i) => `m${i}`));
  assert.equal(stderr, []);
});

test('a missing receiver is reported once; the logger reconnects when it appears', async () => {
  const dir = tempDir();
  const { logging, stderr } = captureLogging({ local: { type: 'local', path: 'log.sock', format: '{Message}' } }, dir);
  logging.info('chain', 'dropped 1');
  logging.info('chain', 'dropped 2');
  assert.is(stderr.length, 1);
  assert.match(stderr[0], /^tsibase: logger 'local': connecting to .*log\.sock: connect -2/);
  const sock = receiver(join(dir, 'log.sock'));
  logging.info('chain', 'delivered');
  await waitFor(() => sock.messages.length === 1, 'the datagram after reconnecting');
  await logging.close();
  sock.close();
  assert.equal(sock.messages, ['delivered']);
});

test('a changed path takes the records that follow', async () => {
  const dir = tempDir();
  const [first, second] = [receiver(join(dir, 'a.sock')), receiver(join(dir, 'b.sock'))];
  const config = (path: string) => ({ local: { type: 'local', path, format: '{Message}' } });
  const { logging } = captureLogging(config('a.sock'), dir);
  logging.info('chain', 'to a');
  logging.reconfigure(config('b.sock'));
  logging.info('chain', 'to b');
  await waitFor(() => first.messages.length === 1 && second.messages.length === 1, 'both datagrams');
  await logging.close();
  first.close();
  second.close();
  assert.equal([first.messages, second.messages], [['to a'], ['to b']]);
});

test.run();
