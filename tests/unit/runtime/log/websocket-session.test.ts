import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { Logging } from '../../../../runtime/log/logging.js';
import { LogWebSocketSession, type LogSocketPort } from '../../../../runtime/log/websocket-session.js';
import { captureLogging, tempDir, waitFor } from './helpers.js';

/** The transport side of a session, recording what the session did with it. */
class FakePort implements LogSocketPort {
  sent: string[] = [];
  closed: { code: number; reason: string } | undefined;
  bufferedAmount = 0;

  send(text: string): void {
    this.sent.push(text);
  }

  close(code: number, reason: string): void {
    this.closed = { code, reason };
  }
}

// One Logging for the file; each test's session has a port of its own.
const { logging: shared } = captureLogging({}, tempDir());
test.after(() => shared.close());

function session(): { logging: Logging; port: FakePort; session: LogWebSocketSession } {
  const logging = shared;
  const port = new FakePort();
  return { logging, port, session: new LogWebSocketSession(logging, port) };
}

test('nothing is sent before the first configuration frame', () => {
  const { logging, port, session: s } = session();
  logging.info('chain', 'early');
  assert.equal(port.sent, []);
  s.receive('{}');
  logging.info('chain', 'late');
  assert.is(port.sent.length, 1);
  assert.is(JSON.parse(port.sent[0]).Message, 'late');
});

test('without filter every record is sent, without format as JSON, one record per frame', () => {
  const { logging, port, session: s } = session();
  s.receive('{"somethingElse": 1}');
  logging.info('chain', 'a');
  logging.error('p2p', 'b', { PeerId: 4 });
  assert.equal(port.sent.map((frame) => JSON.parse(frame)).map((r) => [r.Message, r.Severity, r.Channel, r.PeerId]), [
    ['a', 'info', 'chain', undefined],
    ['b', 'error', 'p2p', 4],
  ]);
  assert.is(port.closed, undefined);
});

test('each frame replaces the whole configuration: a missing filter or format returns to the default', () => {
  const { logging, port, session: s } = session();
  s.receive(JSON.stringify({ filter: 'Severity >= warning', format: '{Severity} {Message}' }));
  logging.info('chain', 'quiet');
  logging.warning('chain', 'loud');
  s.receive(JSON.stringify({ format: '{Message}' }));
  logging.info('chain', 'all again');
  s.receive(JSON.stringify({ filter: 'Channel = http' }));
  logging.info('http', 'json again');
  assert.equal(port.sent.slice(0, 2), ['warning loud', 'all again']);
  assert.is(JSON.parse(port.sent[2]).Message, 'json again');
  assert.is(port.sent.length, 3);
});

test('a bad filter closes the socket with 1008 and the error', () => {
  const { logging, port, session: s } = session();
  s.receive(JSON.stringify({ filter: 'Severity >' }));
  assert.equal(port.closed, { code: 1008, reason: "filter: expected a value after '>' at offset 10" });
  logging.info('chain', 'after close');
  assert.equal(port.sent, []);
});

test('a bad format closes the socket with 1008 and the error, even after a good configuration', () => {
  const { logging, port, session: s } = session();
  s.receive('{}');
  logging.info('chain', 'delivered');
  s.receive(JSON.stringify({ format: '{Bogus}' }));
  logging.info('chain', 'not delivered');
  assert.is(port.sent.length, 1);
  assert.equal(port.closed, { code: 1008, reason: "format: unknown attribute 'Bogus' at offset 1" });
});

test('frames that are not a JSON object, or have a non-string filter, close with 1008', () => {
  for (const [frame, reason] of [
    ['not json', 'log configuration: not JSON'],
    ['[1]', 'log configuration: expected a JSON object'],
    ['null', 'log configuration: expected a JSON object'],
    ['{"filter": 3}', 'log configuration: filter must be a string'],
  ]) {
    const { port, session: s } = session();
    s.receive(frame);
    assert.equal(port.closed, { code: 1008, reason }, frame);
  }
});

test('a close reason is cut to the 123 bytes a close frame can carry, on a character boundary', () => {
  const { port, session: s } = session();
  s.receive(JSON.stringify({ filter: `Message = "${'é'.repeat(100)}" )` }));
  assert.is(port.closed!.code, 1008);
  assert.ok(Buffer.byteLength(port.closed!.reason) <= 123);
  assert.match(port.closed!.reason, /^filter: unexpected '\)' at offset \d+$/);
  const long = session();
  long.session.receive(JSON.stringify({ format: `{${'é'.repeat(100)}}` }));
  assert.ok(Buffer.byteLength(long.port.closed!.reason) <= 123);
  assert.not.match(long.port.closed!.reason, /\uFFFD/);
});

test('shutdown closes with 1001 and restart with 1012; the session then stops', () => {
  const first = session();
  first.session.receive('{}');
  first.session.shutdown();
  first.logging.info('chain', 'after');
  assert.equal(first.port.closed, { code: 1001, reason: 'the node is shutting down' });
  assert.equal(first.port.sent, []);
  const second = session();
  second.session.restart();
  second.session.shutdown();
  assert.equal(second.port.closed, { code: 1012, reason: 'the node is restarting' });
});

test('after the socket closes the session no longer receives records', () => {
  const { logging, port, session: s } = session();
  s.receive('{}');
  s.detach();
  logging.info('chain', 'gone');
  s.receive('{}');
  logging.info('chain', 'still gone');
  assert.equal(port.sent, []);
});

test('records are skipped while the transport has too much unsent data', () => {
  const { logging, port, session: s } = session();
  s.receive(JSON.stringify({ format: '{Message}' }));
  port.bufferedAmount = 64 * 1024 * 1024;
  logging.info('chain', 'skipped');
  port.bufferedAmount = 0;
  logging.info('chain', 'sent');
  assert.equal(port.sent, ['sent']);
});

test('a ws WebSocket is a LogSocketPort as it is', async () => {
  const logging = shared;
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket) => {
    const s = new LogWebSocketSession(logging, socket);
    socket.on('message', (data) => s.receive(data.toString()));
    socket.on('close', () => s.detach());
  });
  await new Promise((resolve) => server.once('listening', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const frames: string[] = [];
  let closed: [number, string] | undefined;
  client.on('message', (data) => frames.push(data.toString()));
  client.on('close', (code, reason) => (closed = [code, reason.toString()]));
  await new Promise((resolve) => client.once('open', resolve));
  client.send(JSON.stringify({ format: '{Severity}:{Message}' }));
  await waitFor(() => {
    logging.info('chain', 'ping');
    return frames.length > 0;
  }, 'a record over the websocket');
  assert.is(frames[0], 'info:ping');
  client.send(JSON.stringify({ filter: 'Bogus' }));
  await waitFor(() => closed !== undefined, 'the close frame');
  assert.equal(closed, [1008, "filter: unknown attribute 'Bogus' at offset 0"]);
  await new Promise((resolve) => server.close(resolve));
});

test.run();
