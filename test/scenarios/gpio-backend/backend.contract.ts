/**
 * The GPIO backend contract suite: every sentence of src/hw/gpio/backend.ts as a test, written
 * once and run on every rig. A rig is a backend plus the control surface of the kernel's
 * gpio-sim: a `pull` file per line to drive an input, a `value` file showing the line's level.
 * The sim backend provides those files itself (sim-backend.test.ts, on the host); the cdev backend
 * meets them under /sys/devices/platform/gpio-sim.N/gpiochipM/sim_gpioK/ inside the qemu guest
 * (test/hil/backend-contract.hil.test.ts, `npm run test:hil`).
 *
 * Timing: changes are paced (>= 3 ms apart, and a pulse train waits for each edge before the next
 * change), debounce periods are long against a loaded machine's hiccups, and
 * the suite only waits for things to happen (with generous timeouts). The one duration it asserts
 * is a lower bound set by the contract itself (a debounced edge comes no earlier than the period
 * after the change). What must not happen is shown by a later edge that did (a marker change after
 * it), not by a pause; the only pauses are the pacing between changes.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { isCtlError, type ErrorCode } from '../../../src/core/errors.js';
import type { EdgeEvent, GpioBackend, GpioChip, LineSettings, RequestOptions } from '../../../src/hw/gpio/backend.js';
import { requestLines, type LineSet } from '../../helpers/line-set.js';

export type PullName = 'pull-up' | 'pull-down';

/** What a backend is tested with. Every line of `chip` starts free and pulled down. */
export interface BackendRig {
  backend: GpioBackend;
  /** Path of a chip with at least 8 lines, as given to openChip. */
  chip: string;
  /** What openChip(chip) reports. */
  expect: { name: string; label: string; lineCount: number };
  /** A chip path that does not exist. */
  missingChip: string;
  /** Applies a level to a line (writes its `pull` file). */
  setPull(chip: string, offset: number, pull: PullName): Promise<void>;
  /** The physical level the line has (its `value` file). */
  readValue(chip: string, offset: number): Promise<boolean>;
  /** The `sim_gpio<N>` directory of a line. */
  lineDir(chip: string, offset: number): string;
  /** Makes the chip disappear (gpio-sim: `live` = 0; sim: the directory goes away). */
  removeChip?(chip: string): Promise<void>;
  /** Brings the chip back and returns its path (the kernel may number it anew). */
  restoreChip?(chip: string): Promise<string>;
  /** Removes what the rig made. The suite closes the backend itself before. */
  dispose(): Promise<void>;
}

export interface ContractOptions {
  /** Skip the whole suite (e.g. no gpio-sim on this machine); a string says why. */
  skip?: boolean | string;
  /** How long "nothing happens" is watched for (ms). Default 100. */
  quietMs?: number;
  /** How long an expected event is waited for before the test fails (ms). Default 3000. */
  timeoutMs?: number;
  /** Cases the rig cannot do, by test name, each with the reason it is skipped. */
  skipCases?: Readonly<Record<string, string>>;
}

/** setPull/readValue/lineDir for a rig whose lines are `sim_gpio<N>` directories. */
export function fileControls(lineDir: (chip: string, offset: number) => string) {
  return {
    lineDir,
    async setPull(chip: string, offset: number, pull: PullName): Promise<void> {
      writeFileSync(join(lineDir(chip, offset), 'pull'), pull);
    },
    async readValue(chip: string, offset: number): Promise<boolean> {
      const text = readFileSync(join(lineDir(chip, offset), 'value'), 'latin1').trim();
      assert.match(text, /^[01]$/, `value of ${chip} line ${offset}`);
      return text === '1';
    },
  };
}

/** Edge events as they arrive, with a way to wait for the next ones. */
class EdgeLog {
  readonly events: EdgeEvent[] = [];
  private wake: (() => void) | undefined;
  readonly onEdge = (event: EdgeEvent): void => {
    this.events.push(event);
    this.wake?.();
  };

  /** Resolves once `count` events have arrived in total; fails after `timeoutMs`. */
  async waitFor(count: number, timeoutMs: number): Promise<EdgeEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) {
        assert.fail(`expected ${count} edge(s), got ${this.events.length}: ${JSON.stringify(this.events, big)}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    return this.events.slice(0, count);
  }
}

const big = (_k: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v);

function input(offset: number, extra: Partial<LineSettings> = {}): LineSettings {
  return { offset, direction: 'input', activeLow: false, ...extra };
}

function output(offset: number, extra: Partial<LineSettings> = {}): LineSettings {
  return { offset, direction: 'output', activeLow: false, ...extra };
}

/** Waits for `promise`, failing with `what` after `ms`; leaves no timer behind. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Asserts a CtlError with `code`; `message` is a pattern, or a string the message must equal. */
async function rejectsWith(p: Promise<unknown>, code: ErrorCode, message?: RegExp | string): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(isCtlError(err, code), `expected CtlError ${code}, got ${String(err)}`);
    if (typeof message === 'string') assert.equal((err as Error).message, message);
    else if (message) assert.match((err as Error).message, message);
    return true;
  });
}

export function gpioBackendContract(name: string, makeRig: () => Promise<BackendRig>, options: ContractOptions = {}): void {
  const quietMs = options.quietMs ?? 100;
  const timeoutMs = options.timeoutMs ?? 3000;

  /** A fresh rig for one test, torn down after it. */
  async function setup(t: TestContext): Promise<{ rig: BackendRig; chip: GpioChip }> {
    const rig = await makeRig();
    t.after(async () => {
      await rig.backend.close();
      await rig.dispose();
    });
    return { rig, chip: await rig.backend.openChip(rig.chip) };
  }

  /** Several lines, each on its own request (test/helpers/line-set.ts). */
  function request(chip: GpioChip, lines: LineSettings[], extra: Partial<Omit<RequestOptions, 'line'>> = {}): Promise<LineSet> {
    return requestLines(chip, { consumer: 'contract', lines, ...extra });
  }

  /** A contract case, skipped where the rig says it cannot do it. */
  const contractCase = (title: string, fn: (t: TestContext) => Promise<void>): void => {
    test(title, { skip: options.skipCases?.[title] ?? false }, fn);
  };

  describe(`GPIO backend contract: ${name}`, { skip: options.skip ?? false }, () => {
    contractCase('openChip reports the chip; a missing chip is HW_GONE', async (t) => {
      const { rig, chip } = await setup(t);
      assert.equal(chip.path, rig.chip);
      assert.equal(chip.name, rig.expect.name);
      assert.equal(chip.label, rig.expect.label);
      assert.equal(chip.lineCount, rig.expect.lineCount);
      await rejectsWith(rig.backend.openChip(rig.missingChip), 'HW_GONE');
    });

    contractCase('lineInfo tells free from used lines; an offset out of range is HW_IO', async (t) => {
      const { chip } = await setup(t);
      const free = await chip.lineInfo(3);
      assert.equal(free.offset, 3);
      assert.equal(free.used, false);
      assert.equal(free.consumer, '');
      assert.equal(typeof free.name, 'string');
      const req = await chip.requestLine({ consumer: 'contract-info', line: output(3, { activeLow: true }) });
      const used = await chip.lineInfo(3);
      assert.equal(used.used, true);
      assert.equal(used.consumer, 'contract-info');
      assert.equal(used.direction, 'output');
      assert.equal(used.activeLow, true);
      await req.release();
      assert.equal((await chip.lineInfo(3)).used, false);
      await rejectsWith(chip.lineInfo(chip.lineCount), 'HW_IO');
    });

    contractCase('requests grant their lines; release is idempotent and frees at once', async (t) => {
      const { chip } = await setup(t);
      const req = await request(chip, [input(2), output(0), input(1)]);
      assert.deepEqual(req.offsets, [2, 0, 1]);
      assert.equal(req.polled.size, 0);
      await req.release();
      await req.release();
      const again = await request(chip, [input(2), output(0), input(1)]);
      assert.deepEqual(await again.get([0]), [false]);
      await again.release();
    });

    contractCase('inputs read logical levels, inverted when active-low, in the order asked', async (t) => {
      const { rig, chip } = await setup(t);
      const req = await request(chip, [input(0), input(1, { activeLow: true })]);
      assert.deepEqual(await req.get(), [false, true]);
      await rig.setPull(rig.chip, 0, 'pull-up');
      await rig.setPull(rig.chip, 1, 'pull-up');
      assert.deepEqual(await req.get(), [true, false]);
      await rig.setPull(rig.chip, 1, 'pull-down');
      assert.deepEqual(await req.get([1, 0]), [true, true]);
      // The line shows the applied level in `value`, as gpio-sim does.
      assert.equal(await rig.readValue(rig.chip, 0), true);
      assert.equal(await rig.readValue(rig.chip, 1), false);
      await req.release();
    });

    contractCase('bias settings are accepted on inputs', async (t) => {
      const { chip } = await setup(t);
      const req = await request(chip, [input(0, { bias: 'as-is' }), input(1, { bias: 'disabled' }), input(2, { bias: 'pull-down' })]);
      assert.equal((await req.get()).length, 3);
      await req.release();
    });

    contractCase('outputs start at their initial value and follow set(), active-low inverted', async (t) => {
      const { rig, chip } = await setup(t);
      const req = await request(chip, [output(4, { initialValue: true }), output(5), output(6, { activeLow: true, initialValue: true })]);
      assert.equal(await rig.readValue(rig.chip, 4), true);
      assert.equal(await rig.readValue(rig.chip, 5), false);
      assert.equal(await rig.readValue(rig.chip, 6), false);
      assert.deepEqual(await req.get(), [true, false, true]);
      await req.set(
        new Map([
          [4, false],
          [5, true],
          [6, false],
        ]),
      );
      assert.equal(await rig.readValue(rig.chip, 4), false);
      assert.equal(await rig.readValue(rig.chip, 5), true);
      assert.equal(await rig.readValue(rig.chip, 6), true);
      assert.deepEqual(await req.get([6, 5]), [false, true]);
      await req.release();
    });

    contractCase('open-drain and open-source outputs drive their active level and release to the pull', async (t) => {
      const { rig, chip } = await setup(t);
      await rig.setPull(rig.chip, 4, 'pull-up');
      await rig.setPull(rig.chip, 6, 'pull-up');
      const req = await request(chip, [
        output(4, { drive: 'open-drain' }),
        output(5, { drive: 'open-drain' }),
        output(6, { drive: 'open-source', initialValue: true }),
        output(7, { drive: 'open-source', initialValue: true }),
      ]);
      const values = async () => Promise.all([4, 5, 6, 7].map((o) => rig.readValue(rig.chip, o)));
      assert.deepEqual(await values(), [false, false, true, true], 'driven: open drain low, open source high');
      await req.set(
        new Map([
          [4, true],
          [5, true],
          [6, false],
          [7, false],
        ]),
      );
      // Not driven, a line shows its pull (gpiolib emulates both modes by switching to input).
      assert.deepEqual(await values(), [true, false, true, false], 'released: the pull');
      assert.deepEqual(await req.get(), [true, false, true, false], 'get() reads the levels the lines have');
      await req.release();
    });

    contractCase('edges carry direction, increasing timestamps and per-line sequence numbers', async (t) => {
      const { rig, chip } = await setup(t);
      const log = new EdgeLog();
      const req = await request(chip, [input(0, { edges: true }), input(1, { edges: true, activeLow: true })], {
        onEdge: log.onEdge,
      });
      const before = process.hrtime.bigint();
      await rig.setPull(rig.chip, 0, 'pull-up');
      await log.waitFor(1, timeoutMs);
      await sleep(3);
      await rig.setPull(rig.chip, 1, 'pull-up');
      await log.waitFor(2, timeoutMs);
      await sleep(3);
      await rig.setPull(rig.chip, 0, 'pull-down');
      const events = await log.waitFor(3, timeoutMs);
      const after = process.hrtime.bigint();
      assert.deepEqual(
        events.map(({ offset, rising, dropped }) => ({ offset, rising, dropped })),
        [
          { offset: 0, rising: true, dropped: 0 },
          { offset: 1, rising: false, dropped: 0 },
          { offset: 0, rising: false, dropped: 0 },
        ],
      );
      const stamps = events.map((e) => e.timestampNs);
      assert.ok(stamps[0]! >= before && stamps.at(-1)! <= after, 'timestamps are CLOCK_MONOTONIC (hrtime)');
      assert.ok(stamps[0]! < stamps[1]! && stamps[1]! < stamps[2]!, 'timestamps increase');
      assert.deepEqual(await req.get(), [false, false]);
      await req.release();
    });

    contractCase('a paced pulse train is seen whole', async (t) => {
      const { rig, chip } = await setup(t);
      const log = new EdgeLog();
      const req = await request(chip, [input(5, { edges: true })], { onEdge: log.onEdge });
      const pulses = 25;
      // Paced by the reader: each change is written once the previous edge arrived and at least
      // 3 ms later, so a loaded machine stretches the train instead of merging pulses.
      for (let i = 0; i < 2 * pulses; i++) {
        await rig.setPull(rig.chip, 5, i % 2 === 0 ? 'pull-up' : 'pull-down');
        await log.waitFor(i + 1, timeoutMs);
        await sleep(3);
      }
      const events = log.events;
      events.forEach((e, i) => {
        assert.equal(e.offset, 5);
        assert.equal(e.rising, i % 2 === 0, `edge ${i} direction`);
        assert.equal(e.dropped, 0, `edge ${i}: none dropped before it`);
        if (i > 0) assert.ok(e.timestampNs > events[i - 1]!.timestampNs, `edge ${i} timestamp increases`);
      });
      // A marker change after the train: its edge is the next one, so the train had no extra edges.
      await rig.setPull(rig.chip, 5, 'pull-up');
      await log.waitFor(2 * pulses + 1, timeoutMs);
      assert.equal(log.events.length, 2 * pulses + 1, 'no extra edges');
      assert.equal(log.events.at(-1)!.dropped, 0);
      await req.release();
    });

    contractCase('debounce drops a spike and reports a held level after the period', async (t) => {
      const { rig, chip } = await setup(t);
      const log = new EdgeLog();
      // Long enough that a loaded machine cannot stretch the 3 ms spike into a real pulse.
      const periodUs = 100_000;
      // Line 3, debounced alike and changed after the spike, is the marker: its edge comes after
      // the spike's period ended, when an edge of the spike would have come.
      const req = await request(chip, [input(2, { edges: true, debounceUs: periodUs }), input(3, { edges: true, debounceUs: periodUs })], {
        onEdge: log.onEdge,
      });
      assert.ok(req.debounced.has(2), 'the backend applies the debounce');
      await rig.setPull(rig.chip, 2, 'pull-up');
      await sleep(3);
      await rig.setPull(rig.chip, 2, 'pull-down');
      await rig.setPull(rig.chip, 3, 'pull-up');
      await log.waitFor(1, timeoutMs);
      assert.deepEqual(
        log.events.map((e) => e.offset),
        [3],
        'a spike shorter than the period is no edge',
      );
      assert.deepEqual(await req.get(), [false, true]);

      const changedAt = process.hrtime.bigint();
      await rig.setPull(rig.chip, 2, 'pull-up');
      const edge = (await log.waitFor(2, timeoutMs))[1];
      assert.equal(edge!.offset, 2);
      assert.equal(edge!.rising, true);
      assert.equal(edge!.dropped, 0);
      assert.ok(edge!.timestampNs - changedAt >= BigInt(periodUs) * 1000n, 'stamped when the period expired');
      assert.deepEqual(await req.get(), [true, true]);
      await req.release();
    });

    contractCase('a line in use is HW_BUSY naming its consumer, and a failed request holds nothing', async (t) => {
      const { chip } = await setup(t);
      const first = await chip.requestLine({ consumer: 'contract-first', line: input(2) });
      await rejectsWith(chip.requestLine({ consumer: 'contract-second', line: input(2) }), 'HW_BUSY', /contract-first/);
      await rejectsWith(chip.requestLine({ consumer: 'contract-second', line: output(2) }), 'HW_BUSY');
      assert.equal((await chip.lineInfo(2)).consumer, 'contract-first', 'line 2 stays with its holder');
      await rejectsWith(chip.requestLine({ consumer: 'contract-second', line: output(chip.lineCount + 5) }), 'HW_IO');
      assert.equal((await chip.lineInfo(3)).used, false, 'line 3 was not kept');
      const other = await chip.requestLine({ consumer: 'contract-second', line: output(3) });
      await first.release();
      await other.release();
    });

    contractCase('settings the kernel refuses are HW_IO', async (t) => {
      const { chip } = await setup(t);
      await rejectsWith(request(chip, [output(1, { edges: true })]), 'HW_IO');
      await rejectsWith(request(chip, [input(1, { drive: 'open-drain' })]), 'HW_IO');
      assert.equal((await chip.lineInfo(1)).used, false);
    });

    contractCase('closing the chip handle keeps granted requests working', async (t) => {
      const { rig, chip } = await setup(t);
      const req = await request(chip, [input(1)]);
      await chip.close();
      await rig.setPull(rig.chip, 1, 'pull-up');
      assert.deepEqual(await req.get(), [true]);
      await req.release();
    });

    contractCase('no edge is delivered after release', async (t) => {
      const { rig, chip } = await setup(t);
      const log = new EdgeLog();
      const periodMs = 100;
      const req = await request(chip, [input(0, { edges: true }), input(1, { edges: true, debounceUs: periodMs * 1000 })], {
        onEdge: log.onEdge,
      });
      await rig.setPull(rig.chip, 0, 'pull-up');
      await log.waitFor(1, timeoutMs);
      await rig.setPull(rig.chip, 1, 'pull-up'); // its debounce period is still running at release
      await req.release();
      await rig.setPull(rig.chip, 0, 'pull-down');
      // The marker: a new request's debounced edge on line 1, which comes after the released
      // request's period would have ended and after the change of line 0.
      const marker = new EdgeLog();
      const next = await request(chip, [input(1, { edges: true, debounceUs: periodMs * 1000 })], { onEdge: marker.onEdge });
      await rig.setPull(rig.chip, 1, 'pull-down');
      await marker.waitFor(1, timeoutMs);
      assert.equal(log.events.length, 1);
      await next.release();
    });

    contractCase('an edge handler that throws loses nothing: the next edges still come', async (t) => {
      const { rig, chip } = await setup(t);
      const log = new EdgeLog();
      let calls = 0;
      await request(chip, [input(2, { edges: true })], {
        onEdge: (event) => {
          log.onEdge(event);
          if (++calls === 1) throw new Error('a bug in the handler');
        },
      });
      await rig.setPull(rig.chip, 2, 'pull-up');
      await log.waitFor(1, timeoutMs);
      await rig.setPull(rig.chip, 2, 'pull-down');
      const events = await log.waitFor(2, timeoutMs);
      assert.deepEqual(
        events.map((e) => [e.offset, e.rising]),
        [
          [2, true],
          [2, false],
        ],
      );
    });

    contractCase('closing the backend releases its requests; close is idempotent', async (t) => {
      const { rig, chip } = await setup(t);
      const log = new EdgeLog();
      await request(chip, [input(0, { edges: true })], { onEdge: log.onEdge });
      await rig.backend.close();
      await rig.backend.close();
      await rig.setPull(rig.chip, 0, 'pull-up');
      // A closed backend hears nothing any more, so no later edge of its own can mark the end of
      // the watch: this is the suite's one pause that stands for "nothing happened".
      await sleep(quietMs);
      assert.equal(log.events.length, 0);
    });

    contractCase('a removed chip fails its requests with HW_GONE and can be opened again when back', async (t) => {
      const { rig, chip } = await setup(t);
      if (!rig.removeChip || !rig.restoreChip) return t.skip('the rig cannot remove chips');
      // An input with edges and an output, each on its own request, each told once.
      const failuresOf = new Map<number, Error[]>([
        [0, []],
        [1, []],
      ]);
      const told = (offset: number) => {
        let failed: () => void = () => {};
        const failure = new Promise<void>((resolve) => (failed = resolve));
        const onFailure = (err: Error) => {
          failuresOf.get(offset)!.push(err);
          failed();
        };
        return { failure, onFailure };
      };
      const inputTold = told(0);
      const outputTold = told(1);
      const inputReq = await chip.requestLine({
        consumer: 'contract',
        line: input(0, { edges: true }),
        onEdge: () => {},
        onFailure: inputTold.onFailure,
      });
      const outputReq = await chip.requestLine({ consumer: 'contract', line: output(1), onFailure: outputTold.onFailure });
      await rig.removeChip(rig.chip);
      await within(inputTold.failure, timeoutMs, 'onFailure was not called');
      await within(outputTold.failure, timeoutMs, 'onFailure was not called');
      const failures = failuresOf.get(0)!;
      const outputFailures = failuresOf.get(1)!;
      assert.ok(isCtlError(failures[0], 'HW_GONE'), String(failures[0]));
      assert.ok(isCtlError(outputFailures[0], 'HW_GONE'), String(outputFailures[0]));
      // After onFailure every method rejects with that same error.
      await rejectsWith(inputReq.get(), 'HW_GONE', failures[0]!.message);
      await rejectsWith(outputReq.set(true), 'HW_GONE', outputFailures[0]!.message);
      await rejectsWith(rig.backend.openChip(rig.chip), 'HW_GONE');
      await inputReq.release();
      await outputReq.release();

      const path = await rig.restoreChip(rig.chip);
      const back = await rig.backend.openChip(path);
      const marker = new EdgeLog();
      const again = await request(back, [input(0, { edges: true }), output(1)], { onEdge: marker.onEdge });
      assert.deepEqual(await again.get(), [false, false]);
      // An edge on the chip that came back: the watch went on past the removal.
      await rig.setPull(path, 0, 'pull-up');
      await marker.waitFor(1, timeoutMs);
      await again.release();
      assert.equal(failures.length, 1, 'onFailure is called once');
      assert.equal(outputFailures.length, 1, 'onFailure is called once');
    });
  });
}
