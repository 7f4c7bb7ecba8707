import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LogError } from '../../../../runtime/log/errors.js';
import { parseFilter } from '../../../../runtime/log/filter.js';
import { CHANNELS, SEVERITIES, type Channel, type LogRecord, type Severity } from '../../../../runtime/log/record.js';
import { assertFails } from '../../../lib/assert-error.js';

const warning: LogRecord = {
  Message: 'slow peer', Severity: 'warning', Channel: 'p2p', PeerId: 12,
  TimeStamp: new Date('2024-05-01T12:00:00.000Z'), Request: { Method: 'GET', Target: '/x' },
  BlockHeader: { blockNum: 10, producer: 'prod' },
};
const info: LogRecord = { Message: 'served', Severity: 'info', Channel: 'http', Response: { Status: 404 } };

function matches(filter: string, record: LogRecord): boolean {
  return parseFilter(filter)(record);
}

function rejects(filter: string, problem: RegExp): void {
  assertFails(() => parseFilter(filter), LogError, 'LOG_BAD_FILTER', [problem]);
}

test('an empty filter matches every record', () => {
  assert.ok(matches('', info));
  assert.ok(matches('   ', {}));
});

test('ATTR alone tests that the record has the attribute', () => {
  assert.ok(matches('PeerId', warning));
  assert.not.ok(matches('PeerId', info));
  assert.ok(matches('Response.Status', info));
  assert.not.ok(matches('Request.Host', warning));
});

test('severities compare by rank: debug < info < notice < warning < error < critical', () => {
  assert.ok(matches('Severity >= warning', warning));
  assert.not.ok(matches('Severity >= warning', info));
  assert.ok(matches('Severity < notice', info));
  assert.ok(matches('Severity > debug', info));
  assert.ok(matches('Severity <= critical', warning));
  assert.ok(matches('Severity = warning', warning));
  assert.ok(matches('Severity != error', warning));
});

test('channels compare by name and must be one of the seven', () => {
  assert.ok(matches('Channel = p2p', warning));
  assert.ok(matches('Channel != p2p', info));
  rejects('Channel = web', /unknown channel 'web' at offset 10/);
});

test('numbers compare numerically, not as text', () => {
  assert.ok(matches('PeerId > 9', warning));
  assert.ok(matches('PeerId = 12.0', warning));
  assert.ok(matches('Response.Status >= 400', info));
  assert.not.ok(matches('Response.Status < 100', info));
  rejects('PeerId > nine', /PeerId compares with a number, not 'nine' at offset 9/);
});

test('TimeStamp compares with an ISO 8601 date-time, UTC unless a zone is named', () => {
  assert.ok(matches('TimeStamp >= 2024-05-01T12:00', warning));
  assert.not.ok(matches('TimeStamp > 2024-05-01T12:00:00Z', warning));
  assert.ok(matches('TimeStamp < "2024-05-01T13:00:00+00:30"', warning));
  rejects('TimeStamp > yesterday', /ISO 8601 date-time/);
});

test('text compares by code units; values are bare words or "quoted" with \\" escapes', () => {
  assert.ok(matches('Message = "slow peer"', warning));
  assert.ok(matches('Request.Method = GET', warning));
  assert.ok(matches('Message < t', warning));
  assert.ok(matches('Message = "say \\"hi\\""', { Message: 'say "hi"' }));
  assert.ok(matches('Request.Target=/x', warning));
});

test('a comparison with an absent attribute is false, even !=', () => {
  assert.not.ok(matches('PeerId != 3', info));
  assert.not.ok(matches('PeerId < 3', info));
  assert.ok(matches('not PeerId', info));
});

test('BlockHeader fields compare as numbers when both sides are numbers, else as text', () => {
  assert.ok(matches('BlockHeader.blockNum > 9', warning));
  assert.ok(matches('BlockHeader.producer = prod', warning));
  assert.not.ok(matches('BlockHeader.missing = 1', warning));
  assert.ok(matches('BlockHeader.height > 9007199254740993', { BlockHeader: { height: 2n ** 53n + 2n } }));
});

test('not binds tighter than and, and tighter than or', () => {
  // (not Severity = info) and (Channel = p2p)
  assert.ok(matches('not Severity = info and Channel = p2p', warning));
  assert.not.ok(matches('not Severity = info and Channel = p2p', info));
  // (Channel = http and Severity = warning) or PeerId
  assert.ok(matches('Channel = http and Severity = warning or PeerId', warning));
  // Channel = http or (PeerId and Severity = info): false for the warning
  assert.not.ok(matches('Channel = http or PeerId and Severity = info', warning));
  assert.ok(matches('Channel = http or PeerId and Severity = info', info));
});

test('parentheses override precedence and nest', () => {
  assert.ok(matches('(Channel = http or PeerId) and Severity = warning', warning));
  assert.not.ok(matches('(Channel = http or PeerId) and Severity = warning', info));
  assert.ok(matches('not (not (PeerId))', warning));
  assert.ok(matches('((Severity>=info))', info));
});

test('keywords are case-insensitive', () => {
  assert.ok(matches('PeerId AND NOT Response OR Message', warning));
});

test('malformed filters throw LOG_BAD_FILTER naming the problem and its offset', () => {
  rejects('Severity >=', /expected a value after '>=' at offset 11/);
  rejects('Severity >= (', /expected a value after '>=' but found '\(' at offset 12/);
  rejects('(PeerId', /expected '\)' at offset 7/);
  rejects('PeerId)', /unexpected '\)' at offset 6/);
  rejects('PeerId and', /expected an attribute, 'not' or '\(' at offset 10/);
  rejects('and PeerId', /expected an attribute but found 'and' at offset 0/);
  rejects('Nonsense', /unknown attribute 'Nonsense' at offset 0/);
  rejects('Severity = loud', /unknown severity 'loud'/);
  rejects('Message = "open', /unterminated quoted string at offset 10/);
  rejects('PeerId PeerId', /unexpected 'PeerId' at offset 7/);
  rejects('Request = x', /Request is an object; it can only be tested for presence/);
  rejects('PeerId ! 3', /unexpected '!' at offset 7/);
});

test('mayMatch is false only when no record of that severity and channel can pass', () => {
  const mayMatch = (filter: string, severity: Severity, channel: Channel) => parseFilter(filter).mayMatch(severity, channel);
  assert.ok(mayMatch('', 'debug', 'http'));
  assert.not.ok(mayMatch('Severity >= info', 'debug', 'http'));
  assert.ok(mayMatch('Severity >= info', 'info', 'http'));
  assert.not.ok(mayMatch('Severity >= info and Channel = http', 'warning', 'p2p'));
  assert.ok(mayMatch('Severity >= info and Channel = http', 'warning', 'http'));
  assert.not.ok(mayMatch('Message and Severity = error', 'info', 'chain'));
  assert.not.ok(mayMatch('not (Severity < info) or Channel = block', 'debug', 'http'));
  assert.not.ok(mayMatch('Severity and not Channel', 'critical', 'chain'));
  // Other attributes are unknown, so anything that depends on them may match.
  assert.ok(mayMatch('Message and Severity = error', 'error', 'chain'));
  assert.ok(mayMatch('Severity >= warning or PeerId', 'debug', 'chain'));
  assert.ok(mayMatch('not PeerId', 'debug', 'chain'));
  assert.ok(mayMatch('PeerId or not PeerId', 'debug', 'chain'));
});

test('a record that passes a filter always has a severity and channel the filter may match', () => {
  const filters = [
    'Severity >= info', 'Channel = http and not Response.Status < 400', 'not (Severity = debug and PeerId) or Channel != p2p',
    'Message = x or Severity < notice and not Channel = chain', 'not not Severity > warning', 'BlockHeader.n > 1 and (Channel = block or Severity = debug)',
  ];
  const others: LogRecord[] = [{}, { PeerId: 1, Message: 'x' }, { Response: { Status: 500 }, BlockHeader: { n: 2 } }];
  for (const text of filters) {
    const filter = parseFilter(text);
    for (const Severity of SEVERITIES) {
      for (const Channel of CHANNELS) {
        for (const other of others) {
          if (filter({ ...other, Severity, Channel })) assert.ok(filter.mayMatch(Severity, Channel), `${text} / ${Severity} ${Channel}`);
        }
      }
    }
  }
});

test.run();
