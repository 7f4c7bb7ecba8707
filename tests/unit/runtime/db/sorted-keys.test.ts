import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toBinaryString } from '../../../../runtime/db/binary-string.js';
import { SortedKeys } from '../../../../runtime/db/sorted-keys.js';
import { randomKey, seededRandom } from './helpers.js';

test('ceiling, floor and forEach match a sorted array through chunk splits and removals', () => {
  const random = seededRandom(21);
  const keys = new SortedKeys();
  const present = new Set<string>();
  for (let i = 0; i < 6000; i++) {
    const key = toBinaryString(randomKey(random, 1, 7));
    // Grow to a few thousand keys (many chunk splits), then mostly shrink (chunks emptied).
    const removing = random() < (i < 4000 ? 0.25 : 0.85);
    if (removing && present.has(key)) {
      keys.delete(key);
      present.delete(key);
    } else if (!removing && !present.has(key)) {
      keys.insert(key);
      present.add(key);
    }
    if (i % 200 !== 0) continue;
    const sorted = [...present].sort();
    const visited: string[] = [];
    keys.forEach((key) => visited.push(key));
    assert.equal(visited, sorted);
    assert.is(keys.last(), sorted[sorted.length - 1]);
    for (let probe = 0; probe < 50; probe++) {
      const at = toBinaryString(randomKey(random, 0, 7));
      assert.is(keys.ceiling(at, true), sorted.find((k) => k >= at));
      assert.is(keys.ceiling(at, false), sorted.find((k) => k > at));
      assert.is(keys.floor(at, true), sorted.filter((k) => k <= at).pop());
      assert.is(keys.floor(at, false), sorted.filter((k) => k < at).pop());
    }
  }
});

test.run();
