// The compiler's source map as a line table (runtime/build/source-map-lines.ts): base64 VLQ
// segments, deltas accumulated, one entry per change of file or line, and maps it cannot read.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TsibaseError } from '../../../../host-api/errors.js';
import { lineTableOfSourceMap } from '../../../../runtime/build/source-map-lines.js';

const map = (sources: string[], mappings: string) => JSON.stringify({ version: 3, sources, names: [], mappings });

test('segments give offsets, files and lines; a repeated line and a segment without a source add no entry', () => {
  // [10,0,4,0] [5,0,0,2] (same line) [3,1,-2,0] [1] (no source) [32,-1,1,0]: "UAIA", "KAAE", "GCFA", "C", "gCDCA".
  const table = lineTableOfSourceMap(map(['a.ts', 'b.ts'], 'UAIA,KAAE,GCFA,C,gCDCA'));
  assert.equal(table, {
    files: ['a.ts', 'b.ts'],
    entries: [
      { offset: 10, file: 0, line: 5 },
      { offset: 18, file: 1, line: 3 },
      { offset: 51, file: 0, line: 4 },
    ],
  });
});

test('a file the map lists twice is one file of the table', () => {
  // [0,0,0,0] [4,1,0,0]: the same line of the same file under its second index adds no entry.
  assert.equal(lineTableOfSourceMap(map(['a.ts', 'a.ts'], 'AAAA,ICAA')), { files: ['a.ts'], entries: [{ offset: 0, file: 0, line: 1 }] });
});

test('a map it cannot read is BUILD_SOURCE_MAP', () => {
  const refusal = (text: string) => {
    try {
      lineTableOfSourceMap(text);
    } catch (error) {
      assert.is((error as TsibaseError).code, 'BUILD_SOURCE_MAP');
      return (error as Error).message;
    }
    return assert.unreachable('read') as never;
  };
  assert.match(refusal(JSON.stringify({ version: 3 })), 'it has no sources or mappings');
  assert.match(refusal(map(['a.ts'], 'U!AA')), "'!' is not a base64 digit");
  assert.match(refusal(map(['a.ts'], 'UCAA')), 'a segment names source 1 of 1');
  assert.match(refusal(map(['a.ts'], 'UAAA,VAAA')), 'its offsets go backwards');
  assert.match(refusal(map(['a.ts'], 'g')), 'a number is cut off');
});

test.run();
