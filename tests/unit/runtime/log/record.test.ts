import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { attributeReader, formatTimeStamp, recordToJson } from '../../../../runtime/log/record.js';

test('JSON record keys come in the order of docs/http.md §8 whatever order the record has', () => {
  const json = recordToJson({
    WasmExecTime: 4, DatabaseTime: 3, ServiceLoadTime: 2, PackTime: 1,
    Response: { Time: 9, Bytes: 8, Status: 200 }, Request: { Host: 'h', Target: '/t', Method: 'GET' },
    TransactionId: 'tx', BlockHeader: { num: 5 }, BlockId: 'b', RemoteEndpoint: '1.2.3.4:5', PeerId: 7,
    Channel: 'http', Severity: 'info', TimeStamp: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)),
    ProcessId: 42, Process: 'tsibase', Host: 'node', Message: 'hello',
  });
  assert.is(json, '{"Message":"hello","Host":"node","Process":"tsibase","ProcessId":42,'
    + '"TimeStamp":"2024-01-02T03:04:05.006Z","Severity":"info","Channel":"http","PeerId":7,'
    + '"RemoteEndpoint":"1.2.3.4:5","BlockId":"b","BlockHeader":{"num":5},"TransactionId":"tx",'
    + '"Request":{"Method":"GET","Target":"/t","Host":"h"},"Response":{"Status":200,"Bytes":8,"Time":9},'
    + '"PackTime":1,"ServiceLoadTime":2,"DatabaseTime":3,"WasmExecTime":4}');
});

test('absent attributes are left out of the JSON record', () => {
  assert.is(recordToJson({ Message: 'm', PeerId: 3 }), '{"Message":"m","PeerId":3}');
  assert.is(recordToJson({}), '{}');
});

test('rendering never throws: 64-bit values become decimal strings, a cycle a note', () => {
  assert.is(recordToJson({ BlockHeader: { height: 2n ** 64n - 1n } }), '{"BlockHeader":{"height":"18446744073709551615"}}');
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.match(recordToJson({ Message: 'm', BlockHeader: cyclic }), /^"unserializable: .*circular/i);
});

test('TimeStamp renders as YYYY-MM-DDThh:mm:ss.mmmZ in UTC', () => {
  assert.is(formatTimeStamp(new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 999))), '1999-12-31T23:59:59.999Z');
});

test('nested attributes are reached by dotted paths', () => {
  const record = { Request: { Method: 'POST' }, BlockHeader: { producer: { name: 'p' } } };
  const attributeValue = (from: typeof record, path: string) => attributeReader(path)(from);
  assert.is(attributeValue(record, 'Request.Method'), 'POST');
  assert.is(attributeValue(record, 'Request.Target'), undefined);
  assert.is(attributeValue(record, 'BlockHeader.producer.name'), 'p');
  assert.is(attributeValue(record, 'Response.Status'), undefined);
});

test.run();
