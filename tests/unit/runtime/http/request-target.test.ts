// parseTarget must split every target exactly as the WHATWG URL parser does; the fast path only
// saves the parser's work.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTarget } from '../../../../runtime/http/request-target.js';
import { seededRandom } from '../../../lib/random.js';

/** What a split gives, or the error it throws (a target like `//<` names no valid host). */
function outcome(split: () => { path: string; query: string }): unknown {
  try {
    return split();
  } catch (err) {
    return `throws ${(err as Error).message}`;
  }
}

function viaUrl(target: string): { path: string; query: string } {
  const url = new URL(target, 'http://host');
  return { path: url.pathname, query: url.search };
}

function assertSameSplit(target: string): void {
  assert.equal(outcome(() => parseTarget(target)), outcome(() => viaUrl(target)), JSON.stringify(target));
}

const EXAMPLES = [
  '/', '/rows', '/push_transaction?wait_for=applied', '/native/admin/status', '/index.html', '/a/b.c/d',
  '/a/./b', '/a/../native/admin/status', '/..', '/.', '/a/.', '/a/..', '/.hidden', '/a..b/c',
  '/%2e%2e/x', '/a%20b', '/a b', '/a\\b', '//host/path', '/a#frag', '/a?b#c', '/?', '/a?', '/a?x=1&y=2',
  "/a?q='x'", '/a?q="x"', '/a?q=<x>', '/a?q=%zz', '/é', '/a?é', '/a|b', '/a[b]', '/a{b}', '/a`b', '/a^b',
  '/a?b?c', '/a;b=c', "/a'b", '/~user', '/a:b@c', '//<',
];

test('splits the examples as the URL parser does', () => {
  for (const target of EXAMPLES) assertSameSplit(target);
});

test('splits random targets as the URL parser does', () => {
  const random = seededRandom(7);
  const alphabet = "/.?#%2eE a\\'\"<>é|-_~:@=&;!$()*+,09";
  for (let i = 0; i < 5000; i++) {
    let target = '/';
    const length = Math.floor(random() * 12);
    for (let j = 0; j < length; j++) target += alphabet[Math.floor(random() * alphabet.length)];
    assertSameSplit(target);
  }
});

test.run();
