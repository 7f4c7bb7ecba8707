import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  NameError,
  accountNameFromNumber,
  accountNumberFromName,
  isValidAccountName,
} from '../../../../host-api/names/index.js';
import { assertFails as assertNameError } from '../../../lib/assert-error.js';
import { seededRandom } from '../../../lib/random.js';


const ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyz';

function randomValidName(random: () => number): string {
  const length = Math.floor(random() * 11);
  let name = '';
  for (let i = 0; i < length; i++) {
    const dashAllowed = i > 0 && i < length - 1 && name[i - 1] !== '-';
    name += dashAllowed && random() < 0.2 ? '-' : ALPHANUMERIC[Math.floor(random() * 36)];
  }
  return name;
}

const assertFails = (fn: () => unknown, code: string, messageParts: string[]) => assertNameError(fn, NameError, code, messageParts);

const SPEC_EXAMPLES: [string, bigint][] = [
  ['a', 331048532879956736n],
  ['abc123', 342084831226198272n],
  ['spiderman', 950660654012764416n],
  ['alice', 351191174077921280n],
  ['tokens', 982919391315047424n],
  ['0', 256n],
  ['zzzzzzzzzz', 1191774718367843328n],
  ['a+42', 331048532879956778n],
  ['', 0n],
];

const MAX_NUMBER = 1191774718367843328n + 255n; // "zzzzzzzzzz+255"
const MAX_RANK = 1191774718367843328n >> 8n;

test('spec examples encode and decode', () => {
  for (const [name, number] of SPEC_EXAMPLES) {
    assert.is(accountNumberFromName(name), number, name);
    assert.is(accountNameFromNumber(number), name, name);
    assert.ok(isValidAccountName(name), name);
  }
  assert.is(accountNumberFromName('a'), 0x04981ee2fdb95b00n);
});

test('uppercase folds to lowercase; output is lowercase', () => {
  assert.is(accountNumberFromName('ALICE'), 351191174077921280n);
  assert.is(accountNumberFromName('SpiderMan'), 950660654012764416n);
  assert.is(accountNameFromNumber(accountNumberFromName('ABC123')), 'abc123');
  assert.ok(isValidAccountName('Tokens'));
});

test('subaccounts: low byte, shown as +N only when nonzero', () => {
  assert.is(accountNumberFromName('alice+1'), 351191174077921281n);
  assert.is(accountNumberFromName('alice+255'), 351191174077921535n);
  assert.is(accountNameFromNumber(351191174077921535n), 'alice+255');
  assert.is(accountNameFromNumber(MAX_NUMBER), 'zzzzzzzzzz+255');
  assert.is(accountNumberFromName('+5'), 5n);
  assert.is(accountNameFromNumber(5n), '+5');
});

test('invalid names fail with INVALID_ACCOUNT_NAME and say why', () => {
  const cases: [string, string][] = [
    ['abcdefghijk', 'longer than 10'],
    ['a.b', "bad character '.'"],
    ['a b', "bad character ' '"],
    ['al_ce', "bad character '_'"],
    ['café', "bad character 'é'"],
    ['a😀', "bad character '😀'"],
    ['-', "starts with '-'"],
    ['-a', "starts with '-'"],
    ['a-', "ends with '-'"],
    ['a--b', "contains '--'"],
    ['a+', 'bad subaccount'],
    ['a+0', 'bad subaccount'],
    ['a+01', 'bad subaccount'],
    ['a+256', 'bad subaccount'],
    ['a+1000', 'bad subaccount'],
    ['a+1x', 'bad subaccount'],
    ['a+-1', 'bad subaccount'],
    ['a+1+2', 'bad subaccount'],
    ['a.b+1', "bad character '.'"],
  ];
  for (const [name, why] of cases) {
    assertFails(() => accountNumberFromName(name), 'INVALID_ACCOUNT_NAME', [`"${name}"`, why]);
    assert.not.ok(isValidAccountName(name), name);
  }
});

test('invalid numbers fail with INVALID_ACCOUNT_NUMBER', () => {
  assertFails(() => accountNameFromNumber((MAX_RANK + 1n) << 8n), 'INVALID_ACCOUNT_NUMBER', ['rank']);
  assertFails(() => accountNameFromNumber((1n << 64n) - 1n), 'INVALID_ACCOUNT_NUMBER', ['rank']);
  assertFails(() => accountNameFromNumber(-1n), 'INVALID_ACCOUNT_NUMBER', ['u64']);
  assertFails(() => accountNameFromNumber(1n << 64n), 'INVALID_ACCOUNT_NUMBER', ['u64']);
});

test('the largest rank is the number of valid names minus one', () => {
  // Valid names by length: ending in a letter/digit (endsChar) or in '-' (endsDash).
  let endsChar = 36n;
  let endsDash = 0n;
  let total = 1n + endsChar; // the empty name and the 1-char names
  for (let length = 2; length <= 10; length++) {
    [endsChar, endsDash] = [36n * (endsChar + endsDash), endsChar];
    total += endsChar;
  }
  assert.is(MAX_RANK + 1n, total);
});

test('random valid names round-trip, with and without subaccounts', () => {
  const random = seededRandom(0x5eed);
  for (let i = 0; i < 5000; i++) {
    const name = randomValidName(random);
    assert.ok(isValidAccountName(name), name);
    const number = accountNumberFromName(name);
    assert.is(number & 0xffn, 0n);
    assert.is(accountNameFromNumber(number), name);
    assert.is(accountNumberFromName(name.toUpperCase()), number);
    const withSubaccount = `${name}+${1 + Math.floor(random() * 255)}`;
    assert.is(accountNameFromNumber(accountNumberFromName(withSubaccount)), withSubaccount);
  }
});

test('number order matches name order (end < - < 0-9 < a-z)', () => {
  const random = seededRandom(42);
  const names = new Set<string>();
  while (names.size < 5000) names.add(randomValidName(random));
  // In ASCII '-' < '0'-'9' < 'a'-'z', and a prefix sorts first: the spec's order.
  const sorted = [...names].sort();
  for (let i = 1; i < sorted.length; i++) {
    assert.ok(accountNumberFromName(sorted[i - 1]) < accountNumberFromName(sorted[i]),
      `${sorted[i - 1]} < ${sorted[i]}`);
  }
});

test('random ranks decode to names that encode back, in increasing order', () => {
  const random = seededRandom(7);
  for (let i = 0; i < 5000; i++) {
    const draw = BigInt(Math.floor(random() * 2 ** 26)) * 2n ** 26n + BigInt(Math.floor(random() * 2 ** 26));
    const rank = draw % MAX_RANK; // rank + 1 is still valid
    const name = accountNameFromNumber(rank << 8n);
    const next = accountNameFromNumber((rank + 1n) << 8n);
    assert.is(accountNumberFromName(name), rank << 8n);
    assert.is(accountNumberFromName(next), (rank + 1n) << 8n);
    assert.ok(name < next, `${name} < ${next}`);
  }
});

test.run();
