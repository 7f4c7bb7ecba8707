import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LogError } from '../../../../runtime/log/errors.js';
import { parseFormat } from '../../../../runtime/log/format.js';
import { recordToJson, type LogRecord } from '../../../../runtime/log/record.js';
import { assertFails } from '../../../lib/assert-error.js';

const record: LogRecord = {
  Message: 'block applied', Host: 'node.example', Process: 'tsibase', ProcessId: 42,
  TimeStamp: new Date('2024-03-05T07:08:09.010Z'), Severity: 'warning', Channel: 'block', PeerId: 7,
  Request: { Method: 'GET', Target: '/' }, BlockHeader: { num: 3 },
};

function render(format: unknown, from: LogRecord = record): string {
  return parseFormat(format)(from);
}

function rejects(format: unknown, problem: RegExp): void {
  assertFails(() => parseFormat(format), LogError, 'LOG_BAD_FORMAT', [problem]);
}

test('the default format is the record as JSON', () => {
  assert.is(render(undefined), recordToJson(record));
});

test('{Attr} renders the attribute; absent ones render empty', () => {
  assert.is(render('[{Severity}] {Channel}: {Message}'), '[warning] block: block applied');
  assert.is(render('{Request.Method} {Request.Host}|{TransactionId}|'), 'GET ||');
  assert.is(render('{TimeStamp}'), '2024-03-05T07:08:09.010Z');
  assert.is(render('{BlockHeader} {BlockHeader.num} {Request}'), '{"num":3} 3 {"Method":"GET","Target":"/"}');
});

test('{TimeStamp:spec} is a strftime pattern in UTC', () => {
  assert.is(render('{TimeStamp:%Y-%m-%d %H:%M:%S.%L}'), '2024-03-05 07:08:09.010');
  assert.is(render('{TimeStamp:%y%j %a %b %e %F %T %s %z %Z %%}'), '24065 Tue Mar  5 2024-03-05 07:08:09 1709622489 +0000 UTC %');
  rejects('{TimeStamp:%Q}', /unsupported field '%Q'/);
});

test('{Attr:width} pads: right-aligned, `-` left-aligned, `0` zero-padded numbers', () => {
  assert.is(render('{Severity:8}|{Severity:-8}|{PeerId:04}|{ProcessId:3}'), ' warning|warning |0007| 42');
  assert.is(render('{PeerId:03}', { PeerId: -5 }), '-05');
  rejects('{Message:08}', /spec '08' does not apply/);
  rejects('{Request:4}', /spec '4' does not apply/);
  rejects('{PeerId:wide}', /spec 'wide' does not apply/);
});

test('{?filter:sub} renders sub only for records the filter matches', () => {
  const format = '{Message}{?Severity >= warning: (attention)}{?Channel = "http":[web]}';
  assert.is(render(format), 'block applied (attention)');
  assert.is(render(format, { Message: 'm', Severity: 'info', Channel: 'http' }), 'm[web]');
  assert.is(render('{?Message = "a:b":colon}', { Message: 'a:b' }), 'colon');
  rejects('{?Severity >> 3:x}', /bad condition \(filter: expected a value after '>' but found '>' at offset 10\) at offset 2/);
  rejects('{?PeerId', /expected ':' after the condition at offset 2/);
});

test('{?:sub} renders sub only when every attribute in it is present', () => {
  assert.is(render('{?:peer {PeerId} }{?:tx {TransactionId} }end'), 'peer 7 end');
  assert.is(render('{?:{Request.Method} {Request.Target}}'), 'GET /');
  assert.is(render('{?:{Request.Method} {Request.Host}}'), '');
  // A nested condition's attributes are its own business.
  assert.is(render('{?:<{Message}{?:{TransactionId}}>}'), '<block applied>');
});

test('{{ and }} are literal braces; a run of } closes as many nested sub-formats as it can', () => {
  assert.is(render('{{{Severity}}}'), '{warning}');
  assert.is(render('{FrameDec:{{"m":"{Message}"}}}'), '21 {"m":"block applied"}');
  assert.is(render('{Indent:2:{?:{Message}}}'), 'block applied');
  assert.is(render('{?:a}}b}'), 'a}b');
  rejects('x}', /unmatched '}' at offset 1/);
  rejects('{?:x', /unclosed '{'/);
  rejects('{', /expected a name or '\?' after '{' at offset 1/);
});

test('{Json} is the whole record as JSON', () => {
  assert.is(render('{Severity} {Json}'), `warning ${recordToJson(record)}`);
});

test('{Syslog:rfc5424} is an RFC 5424 header: priority, version, time, host, app, pid, msgid, no structured data', () => {
  // daemon (3) × 8 + warning (4) = 28
  assert.is(render('{Syslog:rfc5424} {Message}'), '<28>1 2024-03-05T07:08:09.010Z node.example tsibase 42 block - block applied');
  assert.is(render('{Syslog:rfc5424}', { Message: 'x' }), '<30>1 - - - - - -');
  assert.is(render('{Syslog:rfc5424}', { Process: 'my app', Severity: 'critical' }), '<26>1 - - my_app - - -');
});

test('{Syslog:rfc3164}, {Syslog:bsd} and {Syslog:pri} are BSD syslog headers', () => {
  assert.is(render('{Syslog:rfc3164} {Message}'), '<28>Mar  5 07:08:09 node.example tsibase[42]: block applied');
  assert.is(render('{Syslog:bsd} {Message}'), '<28>Mar  5 07:08:09 tsibase[42]: block applied');
  assert.is(render('{Syslog:bsd}', { TimeStamp: record.TimeStamp, Severity: 'debug' }), '<31>Mar  5 07:08:09 -:');
  assert.is(render('{Syslog:pri}{Message}', { Message: 'm', Severity: 'error' }), '<27>m');
  rejects('{Syslog:rfc9999}', /unknown syslog variant 'rfc9999' at offset 8/);
});

test('{Escape:chars:sub} puts a backslash before each listed character of sub', () => {
  const message: LogRecord = { Message: 'say "hi"\\ now\nthen\tdone: ok}' };
  assert.is(render('"{Escape:"\\\\:{Message}}"', message), '"say \\"hi\\"\\\\ now\nthen\tdone: ok}"');
  assert.is(render('{Escape:\\n\\t:{Message}}', message), 'say "hi"\\ now\\nthen\\tdone: ok}');
  assert.is(render('{Escape:\\:\\}:{Message}}', message), 'say "hi"\\ now\nthen\tdone\\: ok\\}');
  rejects('{Escape::{Message}}', /no characters to escape/);
  rejects('{Escape:abc', /expected ':' after the characters to escape/);
});

test('{Indent:n:sub} indents every line of sub after the first by n spaces', () => {
  assert.is(render('{Indent:4:{Message}}', { Message: 'one\ntwo\nthree' }), 'one\n    two\n    three');
  assert.is(render('{Indent:2:{Message}}', { Message: 'one\n' }), 'one\n');
  rejects('{Indent:x:{Message}}', /expected a number of spaces after Indent:/);
});

test('{FrameDec:sub} prefixes sub with its UTF-8 byte length in decimal and a space', () => {
  assert.is(render('{FrameDec:{Message}}', { Message: 'héllo' }), '6 héllo');
  assert.is(render('{FrameDec:{Syslog:rfc5424} {Message}}'), '76 <28>1 2024-03-05T07:08:09.010Z node.example tsibase 42 block - block applied');
  assert.is(render('{FrameDec:}', {}), '0 ');
});

test('unknown attributes and placeholders are LOG_BAD_FORMAT', () => {
  rejects('{Nope}', /unknown attribute 'Nope' at offset 1/);
  rejects('{Message', /expected '}' at offset 8/);
  rejects(42, /expected a string or an object/);
});

test('an object format is a JSON template: strings are formats, a lone placeholder keeps its type', () => {
  const format = { time: '{TimeStamp:%H:%M}', text: '[{Severity}] {Message}', peer: '{PeerId}', tx: '{TransactionId}', at: { host: '{Host}', pid: '{ProcessId}' } };
  assert.is(render(format), '{"time":"07:08","text":"[warning] block applied","peer":7,"at":{"host":"node.example","pid":42}}');
  assert.is(render({ when: '{TimeStamp}' }), '{"when":"2024-03-05T07:08:09.010Z"}');
  rejects({ a: { b: 3 } }, /format\.a\.b: expected a format string or an object/);
  rejects({ a: '{Bad}' }, /format\.a: format: unknown attribute 'Bad'/);
});

test.run();
