// Autoconnect's redial times (docs/p2p.md §1.5) on a virtual clock.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RedialSchedule, redialTimesOf, type RedialClock } from '../../../../../runtime/network/links/redial-schedule.js';

/** A clock whose time moves only when the test says; due timers run in time order. */
class VirtualClock implements RedialClock {
  time = 0;
  private timers = new Map<number, { at: number; run: () => void }>();
  private next = 1;

  now(): number {
    return this.time;
  }

  setTimeout(run: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.set(id, { at: this.time + ms, run });
    return id;
  }

  clearTimeout(timer: unknown): void {
    this.timers.delete(timer as number);
  }

  advanceTo(time: number): void {
    for (;;) {
      const due = [...this.timers].filter(([, t]) => t.at <= time).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = time;
  }

  get pending(): number {
    return this.timers.size;
  }
}

/**
 * A schedule whose dials are recorded with their times, each dial carrying its URL as PeerLinks
 * does; with `failing`, every dial fails at once.
 */
function schedule(base = 100, failing = false) {
  const clock = new VirtualClock();
  const dials: Array<[string, number]> = [];
  const redial: RedialSchedule = new RedialSchedule((url) => {
    dials.push([url, clock.now()]);
    redial.carried(url);
    if (failing) redial.released(url);
  }, redialTimesOf(base), clock);
  return { clock, dials, redial };
}

test('an autoconnect URL is dialled at once; failed dials wait base, then +step each time, up to the most', () => {
  const { clock, dials, redial } = schedule(100, true);
  redial.setAutoconnect(['http://a:1']);
  clock.advanceTo(7_000);
  const times = dials.map(([, t]) => t);
  assert.is(times[0], 0);
  const waits = times.slice(1).map((t, i) => t - times[i]!);
  assert.equal(waits, [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1000]);
});

test('a link that outlived its retry time is redialled at once, and the wait goes back to the base', () => {
  const { clock, dials, redial } = schedule(100);
  redial.setAutoconnect(['u']);
  redial.released('u'); // the first dial fails: next at 100
  clock.advanceTo(100);
  assert.equal(dials.map(([, t]) => t), [0, 100]);
  clock.advanceTo(5_000); // that link lived long
  redial.released('u');
  assert.equal(dials.map(([, t]) => t), [0, 100, 5_000], 'at once');
  redial.released('u'); // fails at once: waits the base again
  clock.advanceTo(5_100);
  assert.equal(dials.map(([, t]) => t), [0, 100, 5_000, 5_100]);
});

test('a URL that is not autoconnect is never redialled; one carried by two links waits for both', () => {
  const { clock, dials, redial } = schedule(100);
  redial.carried('x');
  redial.released('x');
  clock.advanceTo(10_000);
  assert.equal(dials, []);
  redial.setAutoconnect(['y']);
  redial.carried('y'); // a second link took it over (de-duplication)
  redial.released('y');
  clock.advanceTo(20_000);
  assert.is(dials.length, 1, 'still carried by one link');
  redial.released('y');
  assert.is(dials.length, 2);
});

test('a URL dropped from the configuration stops its timer; stop cancels every wait', () => {
  const { clock, dials, redial } = schedule(100);
  redial.setAutoconnect(['a', 'b']);
  redial.released('a');
  redial.released('b');
  assert.is(clock.pending, 2);
  redial.setAutoconnect(['b']);
  assert.is(clock.pending, 1);
  redial.stop();
  assert.is(clock.pending, 0);
  clock.advanceTo(10_000);
  assert.equal(dials.map(([u]) => u), ['a', 'b']);
});

test('a banned URL is deferred: no dial until the ban ends, then one', () => {
  const { clock, dials, redial } = schedule(100);
  redial.setAutoconnect(['b']);
  redial.released('b'); // its link was closed by the ban
  redial.deferFor('b', 5_000);
  clock.advanceTo(4_999);
  assert.equal(dials.map(([, t]) => t), [0], 'not within the ban');
  clock.advanceTo(5_000);
  assert.equal(dials.map(([, t]) => t), [0, 5_000]);
  redial.deferFor('b', 1_000);
  clock.advanceTo(20_000);
  assert.is(dials.length, 2, 'a URL a link carries is not deferred');
});

test.run();
