import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LogError } from '../../../../runtime/log/errors.js';
import { addDuration, parseIsoDateTime, parseIsoDuration, parseRotationTime } from '../../../../runtime/log/iso-time.js';
import { assertFails } from '../../../lib/assert-error.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function nextRotation(rotationTime: string, openedAt: string): string | undefined {
  return iso(parseRotationTime(rotationTime).next(at(openedAt)));
}

test('durations: PnYnMnWnDTnHnMnS with fractions below months', () => {
  assert.equal(parseIsoDuration('PT1H'), { years: 0, months: 0, milliseconds: 3_600_000 });
  assert.equal(parseIsoDuration('P1Y2M3W4DT5H6M7.5S'), {
    years: 1, months: 2, milliseconds: ((((3 * 7 + 4) * 24 + 5) * 60 + 6) * 60 + 7.5) * 1000,
  });
  assert.equal(parseIsoDuration('PT0,25S'), { years: 0, months: 0, milliseconds: 250 });
  for (const bad of ['P', 'PT', 'P1H', 'PT1D', 'P1.5M', 'P-1D', '1D', 'P1DT']) assert.is(parseIsoDuration(bad), undefined, bad);
});

test('calendar durations clamp to the end of the month', () => {
  const months = parseIsoDuration('P1M')!;
  assert.is(iso(addDuration(at('2024-01-31T10:00:00Z'), months)), '2024-02-29T10:00:00.000Z');
  assert.is(iso(addDuration(at('2024-01-31T10:00:00Z'), months, 3)), '2024-04-30T10:00:00.000Z');
  assert.is(iso(addDuration(at('2024-02-29T00:00:00Z'), parseIsoDuration('P1Y')!)), '2025-02-28T00:00:00.000Z');
});

test('date-times: YYYY-MM-DD[Thh:mm[:ss[.fff]]][zone], UTC without a zone', () => {
  assert.is(iso(parseIsoDateTime('2024-01-02')), '2024-01-02T00:00:00.000Z');
  assert.is(iso(parseIsoDateTime('2024-01-02T03:04')), '2024-01-02T03:04:00.000Z');
  assert.is(iso(parseIsoDateTime('2024-01-02T03:04:05.5+01:30')), '2024-01-02T01:34:05.500Z');
  assert.is(iso(parseIsoDateTime('2024-01-02T03:04:05-0200')), '2024-01-02T05:04:05.000Z');
  for (const bad of ['2024-02-30', '2024-13-01', '2024-01-01T25:00', 'today', '2024-1-1']) assert.is(parseIsoDateTime(bad), undefined, bad);
});

test('rotationTime as a duration: that long after the file was opened', () => {
  assert.is(nextRotation('PT1H', '2024-01-01T10:20:00Z'), '2024-01-01T11:20:00.000Z');
  assert.is(nextRotation('PT0.5S', '2024-01-01T10:20:00Z'), '2024-01-01T10:20:00.500Z');
  assert.is(nextRotation('P1D', '2024-01-01T10:20:00Z'), '2024-01-02T10:20:00.000Z');
});

test('rotationTime as a time of day: daily at that time, UTC unless zoned', () => {
  assert.is(nextRotation('12:00:00', '2024-01-01T10:00:00Z'), '2024-01-01T12:00:00.000Z');
  assert.is(nextRotation('12:00:00', '2024-01-01T12:00:00Z'), '2024-01-02T12:00:00.000Z');
  assert.is(nextRotation('T12:00Z', '2024-01-01T13:00:00Z'), '2024-01-02T12:00:00.000Z');
  assert.is(nextRotation('T08:30+02:00', '2024-01-01T05:00:00Z'), '2024-01-01T06:30:00.000Z');
  assert.is(nextRotation('00:00', '2024-12-31T23:59:59.999Z'), '2025-01-01T00:00:00.000Z');
});

test('rotationTime as ---DD[Thh:mm]: monthly, on the last day when the month is shorter', () => {
  assert.is(nextRotation('---15T00:00', '2024-01-20T00:00:00Z'), '2024-02-15T00:00:00.000Z');
  assert.is(nextRotation('---15T00:00', '2024-01-10T00:00:00Z'), '2024-01-15T00:00:00.000Z');
  assert.is(nextRotation('---31', '2024-02-01T00:00:00Z'), '2024-02-29T00:00:00.000Z');
  assert.is(nextRotation('---31T06:00Z', '2024-12-31T07:00:00Z'), '2025-01-31T06:00:00.000Z');
});

test('rotationTime as --MM-DD[Thh:mm:ss]: annually', () => {
  assert.is(nextRotation('--01-01T00:00:00', '2024-06-01T00:00:00Z'), '2025-01-01T00:00:00.000Z');
  assert.is(nextRotation('--07-01', '2024-06-01T00:00:00Z'), '2024-07-01T00:00:00.000Z');
  assert.is(nextRotation('--02-29T12:00', '2025-01-01T00:00:00Z'), '2025-02-28T12:00:00.000Z');
});

test('rotationTime as R[n]/start/duration: at start + k·duration, k ≤ n', () => {
  assert.is(nextRotation('R/2024-01-01T00:00:00Z/PT6H', '2023-12-01T00:00:00Z'), '2024-01-01T00:00:00.000Z');
  assert.is(nextRotation('R/2024-01-01T00:00:00Z/PT6H', '2024-01-01T00:00:00Z'), '2024-01-01T06:00:00.000Z');
  assert.is(nextRotation('R/2024-01-01T00:00:00Z/PT6H', '2024-03-10T13:00:00Z'), '2024-03-10T18:00:00.000Z');
  assert.is(nextRotation('R/2020-01-31T00:00Z/P1M', '2024-02-29T12:00:00Z'), '2024-03-31T00:00:00.000Z');
  assert.is(nextRotation('R2/2024-01-01T00:00Z/P1D', '2024-01-02T12:00:00Z'), '2024-01-03T00:00:00.000Z');
  assert.is(nextRotation('R2/2024-01-01T00:00Z/P1D', '2024-01-03T00:00:00Z'), undefined);
});

test('other rotationTime text is LOG_BAD_CONFIG', () => {
  for (const bad of ['hourly', 'P0D', 'R/2024-01-01/PT0S', 'R/PT1H/2024-01-01', '25:00', '---32', '--13-01', '--01-01 00:00', 'T']) {
    assertFails(() => parseRotationTime(bad), LogError, 'LOG_BAD_CONFIG', [/is not an ISO 8601 duration, time or repeating interval/]);
  }
});

test.run();
