import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { isCtlError, type ErrorCode } from '../../../src/core/errors.js';
import type { EdgeEvent, LineSettings } from '../../../src/hw/gpio/backend.js';
import { SimBackend } from '../../../src/sim/gpio/sim-backend.js';
import { createSimBoard } from '../../../src/sim/gpio/sim-board.js';
import { tempSimBoard } from '../../helpers/sim-board.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { fileControls, gpioBackendContract, type BackendRig } from '../../scenarios/gpio-backend/backend.contract.js';
import { requestLines } from '../../helpers/line-set.js';
import { systemTime } from '../../../src/core/time.js';

/** The simulated kernel's inotify watch is real: these tests run on the real clock. */
const REAL_TIME = { time: systemTime };

async function simRig(): Promise<BackendRig> {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-mqtt-sim-contract-'));
  createSimBoard(dir, { gpiochip0: { lines: 8, label: 'contract-sim' }, gpiochip1: 4 });
  const chipDir = (chip: string) => join(dir, basename(chip));
  return {
    backend: new SimBackend({ dir, ...REAL_TIME }),
    chip: '/dev/gpiochip0',
    expect: { name: 'gpiochip0', label: 'contract-sim', lineCount: 8 },
    missingChip: '/dev/gpiochip9',
    ...fileControls((chip, offset) => join(chipDir(chip), `sim_gpio${offset}`)),
    removeChip: async (chip) => renameSync(chipDir(chip), chipDir(chip) + '.removed'),
    restoreChip: async (chip) => {
      renameSync(chipDir(chip) + '.removed', chipDir(chip));
      return chip;
    },
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

gpioBackendContract('sim', simRig);

const input = (offset: number, extra: Partial<LineSettings> = {}): LineSettings => ({
  offset,
  direction: 'input',
  activeLow: false,
  ...extra,
});
const output = (offset: number, extra: Partial<LineSettings> = {}): LineSettings => ({
  offset,
  direction: 'output',
  activeLow: false,
  ...extra,
});
const read = (path: string) => readFileSync(path, 'latin1');
const isCode = (code: ErrorCode) => (err: unknown) => isCtlError(err, code);
const ms = (n: number) => BigInt(n) * 1_000_000n;

/** Runs a command to its end; rejects when it fails. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, (err) => (err ? reject(err) : resolve()));
  });
}

/** Resolves with edge number `count` once it has come, or fails after a while. */
async function nextEdge(edges: EdgeEvent[], count: number): Promise<EdgeEvent> {
  await waitUntil(() => edges.length >= count, `edge #${count}`, { intervalMs: 2 });
  return edges[count - 1]!;
}

describe('sim backend: synthetic time', () => {
  test('drive() delivers the edge synchronously with the given timestamp and updates the files', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    const edges: EdgeEvent[] = [];
    const req = await requestLines(chip, {
      consumer: 't',
      lines: [input(3, { edges: true, activeLow: true })],
      onEdge: (e) => edges.push(e),
    });
    board.backend.drive('gpiochip0', 3, 'pull-up', { atNs: 1_000n });
    assert.deepEqual(edges, [{ offset: 3, rising: false, timestampNs: 1_000n, dropped: 0 }]);
    assert.equal(read(join(board.lineDir('gpiochip0', 3), 'pull')), 'pull-up\n');
    assert.equal(read(join(board.lineDir('gpiochip0', 3), 'value')), '1\n');
    assert.equal(board.backend.level('gpiochip0', 3), true);
    board.backend.drive('/dev/gpiochip0', 3, false, { atNs: 2_000n });
    assert.equal(edges.length, 2);
    assert.deepEqual(edges[1], { offset: 3, rising: true, timestampNs: 2_000n, dropped: 0 });
    // The same level again is no edge, and the inotify echo of our own writes adds nothing.
    board.backend.drive('gpiochip0', 3, 'pull-down', { atNs: 3_000n });
    assert.equal(edges.length, 2);
    assert.deepEqual(await req.get(), [true]);
    // Another process's write after it: its edge is the next one, so the echoes came to nothing.
    writeFileSync(join(board.lineDir('gpiochip0', 3), 'pull'), 'pull-up\n');
    await nextEdge(edges, 3);
    assert.equal(edges.length, 3);
    assert.deepEqual([edges[2]!.rising, edges[2]!.dropped], [false, 0]);
  });

  test('debounce on synthetic time: spikes vanish, a held level is reported at the expiry', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    const edges: EdgeEvent[] = [];
    const req = await requestLines(chip, {
      consumer: 't',
      lines: [input(1, { edges: true, debounceUs: 10_000 })],
      onEdge: (e) => edges.push(e),
    });
    assert.deepEqual([...req.debounced], [1]);
    const sim = board.backend;
    sim.drive('gpiochip0', 1, 'pull-up', { atNs: ms(100) });
    sim.drive('gpiochip0', 1, 'pull-down', { atNs: ms(105) }); // a 5 ms spike
    sim.advanceTo(ms(200));
    assert.equal(edges.length, 0);
    assert.deepEqual(await req.get(), [false]);

    sim.drive('gpiochip0', 1, 'pull-up', { atNs: ms(300) });
    sim.drive('gpiochip0', 1, 'pull-down', { atNs: ms(302) }); // bounce: restarts the period
    sim.drive('gpiochip0', 1, 'pull-up', { atNs: ms(304) });
    sim.advanceTo(ms(313));
    assert.equal(edges.length, 0, 'the period restarted at 304 ms');
    assert.deepEqual(await req.get(), [false], 'reads give the debounced level');
    sim.advanceTo(ms(314));
    assert.deepEqual(edges, [{ offset: 1, rising: true, timestampNs: ms(314), dropped: 0 }]);
    assert.deepEqual(await req.get(), [true]);

    // A later drive settles an expired period first, with the expiry's timestamp.
    sim.drive('gpiochip0', 1, 'pull-down', { atNs: ms(400) });
    sim.drive('gpiochip0', 1, 'pull-up', { atNs: ms(450) });
    assert.deepEqual(edges[1], { offset: 1, rising: false, timestampNs: ms(410), dropped: 0 });
    assert.equal(edges.length, 2);
  });

  test('advanceTo settles periods of different lines in time order', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    const edges: EdgeEvent[] = [];
    const onEdge = (e: EdgeEvent) => edges.push(e);
    await requestLines(chip, { consumer: 'a', lines: [input(0, { edges: true, debounceUs: 50_000 })], onEdge });
    await requestLines(chip, { consumer: 'b', lines: [input(1, { edges: true, debounceUs: 10_000 })], onEdge });
    board.backend.drive('gpiochip0', 0, true, { atNs: ms(0) });
    board.backend.drive('gpiochip0', 1, true, { atNs: ms(20) });
    board.backend.advanceTo(ms(100));
    assert.deepEqual(
      edges.map((e) => [e.offset, e.timestampNs]),
      [
        [1, ms(30)],
        [0, ms(50)],
      ],
    );
  });

  test('an edge callback that drives its line gets the new edge after it returns', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    const seen: string[] = [];
    let depth = 0;
    await chip.requestLine({
      consumer: 't',
      line: input(0, { edges: true }),
      onEdge: (e) => {
        depth++;
        seen.push(`${e.rising ? 'rising' : 'falling'}:${depth}`);
        if (e.rising) board.backend.drive('gpiochip0', 0, 'pull-down', { atNs: e.timestampNs + 1n });
        depth--;
      },
    });
    board.backend.drive('gpiochip0', 0, 'pull-up', { atNs: 10n });
    assert.deepEqual(seen, ['rising:1', 'falling:1']);
  });

  test('releasing inside an edge callback drops the edges still queued', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    const seen: number[] = [];
    const req = await chip.requestLine({
      consumer: 't',
      line: input(0, { edges: true }),
      onEdge: (e) => {
        seen.push(e.offset);
        board.backend.drive('gpiochip0', 0, 'pull-down', { atNs: e.timestampNs + 1n }); // queued
        void req.release();
      },
    });
    board.backend.drive('gpiochip0', 0, 'pull-up', { atNs: 10n });
    assert.deepEqual(seen, [0]);
  });
});

describe('sim backend: files and faults', () => {
  test('writes of another process are mirrored and reported, whatever way they are written', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    const edges: EdgeEvent[] = [];
    await requestLines(chip, { consumer: 't', lines: [input(2, { edges: true })], onEdge: (e) => edges.push(e) });
    const dir = board.lineDir('gpiochip0', 2);
    writeFileSync(join(dir, 'pull'), 'pull-up\n');
    await nextEdge(edges, 1);
    assert.equal(read(join(dir, 'value')), '1\n');
    // A shell writer truncates first: the empty file is not a level. (The pause lets the watch
    // see the empty file on its own, which is what is tested; nothing is concluded from it.)
    writeFileSync(join(dir, 'pull'), '');
    await sleep(20);
    writeFileSync(join(dir, 'pull'), 'pull-down');
    await nextEdge(edges, 2);
    // Replacing the file by rename (atomic writers) is seen too.
    writeFileSync(join(dir, 'pull.tmp'), 'pull-up\n');
    renameSync(join(dir, 'pull.tmp'), join(dir, 'pull'));
    await nextEdge(edges, 3);
    // One more change after them: had a write been seen twice, this edge would not be the fourth.
    writeFileSync(join(dir, 'pull'), 'pull-down\n');
    await nextEdge(edges, 4);
    assert.deepEqual(
      edges.map((e) => [e.rising, e.dropped]),
      [
        [true, 0],
        [false, 0],
        [true, 0],
        [false, 0],
      ],
    );
  });

  test('edges written by other processes are seen: a paced node writer and a shell writer', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    const edges: EdgeEvent[] = [];
    await requestLines(chip, { consumer: 't', lines: [input(6, { edges: true })], onEdge: (e) => edges.push(e) });
    const pull = join(board.lineDir('gpiochip0', 6), 'pull');
    // Another process writes 40 changes, each once the sim has mirrored the last one into
    // `value` (so a loaded machine cannot merge them) and at least 3 ms later.
    const writer = `
      const { readFileSync, writeFileSync } = require('node:fs');
      const [pull, value] = process.argv.slice(1);
      let i = 0;
      const next = () => {
        if (i === 40) return;
        const high = i++ % 2 === 0;
        writeFileSync(pull, high ? 'pull-up\\n' : 'pull-down\\n');
        const seen = () => readFileSync(value, 'latin1').trim() === (high ? '1' : '0');
        const wait = () => (seen() ? setTimeout(next, 3) : setTimeout(wait, 1));
        wait();
      };
      next();`;
    await run(process.execPath, ['-e', writer, pull, join(board.lineDir('gpiochip0', 6), 'value')]);
    await nextEdge(edges, 40);
    // A shell writer truncates, then writes: the empty moment between is no level.
    await run('sh', ['-c', 'echo pull-up > "$0"', pull]);
    await nextEdge(edges, 41);
    await run('sh', ['-c', 'echo pull-down > "$0"', pull]);
    await nextEdge(edges, 42);
    // A marker change after them: the 43rd edge, so none of the writes was counted twice.
    writeFileSync(pull, 'pull-up\n');
    await nextEdge(edges, 43);
    assert.equal(edges.length, 43);
    edges.forEach((e, i) => assert.equal(e.rising, i % 2 === 0, `edge ${i}`));
  });

  test('outputs write value; a released output shows its pull again; free lines follow drive()', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    board.backend.drive('gpiochip0', 4, 'pull-up');
    assert.equal(board.backend.level('gpiochip0', 4), true, 'a free line shows its pull');
    const req = await requestLines(chip, { consumer: 't', lines: [output(4)] });
    assert.equal(board.backend.level('gpiochip0', 4), false);
    board.backend.drive('gpiochip0', 4, 'pull-up');
    assert.equal(board.backend.level('gpiochip0', 4), false, 'a driven output keeps its level');
    await req.release();
    assert.equal(board.backend.level('gpiochip0', 4), true);
  });

  test('a chip without interrupts grants edge lines as polled (no_irq file or option)', async (t) => {
    const board = tempSimBoard(
      t,
      { gpiochip0: { lines: 4, noIrq: true }, gpiochip1: 4, gpiochip2: 1 },
      { noIrqChips: ['gpiochip1'], ...REAL_TIME },
    );
    // A line with interrupts whose edges mark that the watch got past the writes before them.
    const markers: EdgeEvent[] = [];
    await requestLines(await board.backend.openChip('/dev/gpiochip2'), {
      consumer: 'm',
      lines: [input(0, { edges: true })],
      onEdge: (e) => markers.push(e),
    });
    const marker = async () => {
      writeFileSync(join(board.lineDir('gpiochip2', 0), 'pull'), markers.length % 2 === 0 ? 'pull-up' : 'pull-down');
      await nextEdge(markers, markers.length + 1);
    };
    for (const name of ['gpiochip0', 'gpiochip1']) {
      const chip = await board.backend.openChip(`/dev/${name}`);
      const edges: EdgeEvent[] = [];
      const req = await requestLines(chip, {
        consumer: 't',
        lines: [input(0, { edges: true, debounceUs: 5000 }), input(1)],
        onEdge: (e) => edges.push(e),
      });
      assert.deepEqual([...req.polled], [0], name);
      assert.equal(req.debounced.size, 0, `${name}: no kernel debounce without an interrupt`);
      board.backend.drive(name, 0, 'pull-up', { atNs: 5n });
      writeFileSync(join(board.lineDir(name, 1), 'pull'), 'pull-up');
      await marker();
      assert.equal(edges.length, 0, `${name}: no edges`);
      assert.deepEqual(await req.get(), [true, true], `${name}: levels are read`);
      await req.release();
    }
  });

  test('a value that cannot be written is HW_IO, and the line stays free', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    const value3 = join(board.lineDir('gpiochip0', 3), 'value');
    unlinkSync(value3);
    mkdirSync(value3); // even root cannot write a directory
    await assert.rejects(requestLines(chip, { consumer: 't', lines: [output(2), output(3)] }), isCode('HW_IO'));
    assert.equal((await chip.lineInfo(2)).used, false);

    const req = await requestLines(chip, { consumer: 't', lines: [output(2)] });
    const value2 = join(board.lineDir('gpiochip0', 2), 'value');
    unlinkSync(value2);
    mkdirSync(value2);
    await assert.rejects(req.set(new Map([[2, true]])), isCode('HW_IO'));
    assert.deepEqual(await req.get(), [false], 'the request still works; the level did not change');
  });

  test('invalid settings are HW_IO', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    const bad: LineSettings[][] = [
      [output(1, { edges: true })],
      [output(1, { debounceUs: 100 })],
      [input(1, { drive: 'open-drain' })],
      [input(1, { debounceUs: -1 })],
      [input(-1)],
      [input(1.5)],
    ];
    for (const lines of bad) {
      await assert.rejects(requestLines(chip, { consumer: 't', lines }), isCode('HW_IO'), JSON.stringify(lines));
    }
    const req = await requestLines(chip, { consumer: 'x'.repeat(40) + 'é', lines: [input(1)] });
    assert.equal((await chip.lineInfo(1)).consumer, 'x'.repeat(31), 'consumer cut to 31 bytes');
    await assert.rejects(req.set(new Map([[1, true]])), isCode('HW_IO'));
    await assert.rejects(req.get([5]), isCode('HW_IO'));
  });

  test('labels and line names come from optional files', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: { lines: 3, label: 'board-io', lineNames: ['', 'RELAY1'] }, gpiochip1: 2 }, REAL_TIME);
    const chip0 = await board.backend.openChip('/dev/gpiochip0');
    assert.equal(chip0.label, 'board-io');
    assert.equal((await chip0.lineInfo(1)).name, 'RELAY1');
    assert.equal((await chip0.lineInfo(0)).name, '');
    const chip1 = await board.backend.openChip('gpiochip1');
    assert.equal(chip1.label, 'gpio-sim');
    assert.equal(chip1.lineCount, 2);
  });

  test('a chip directory replaced by a new one is a new chip: old handles and requests are gone', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    const failures: Error[] = [];
    const req = await requestLines(chip, { consumer: 't', lines: [output(1)], onFailure: (e) => failures.push(e) });
    rmSync(join(board.dir, 'gpiochip0'), { recursive: true });
    createSimBoard(board.dir, { gpiochip0: 8 });
    await assert.rejects(chip.lineInfo(1), isCode('HW_GONE'));
    await assert.rejects(req.get(), isCode('HW_GONE'));
    await waitUntil(() => failures.length > 0, 'the failure report');
    assert.ok(isCtlError(failures[0], 'HW_GONE'));
    const fresh = await board.backend.openChip('/dev/gpiochip0');
    const again = await requestLines(fresh, { consumer: 't', lines: [output(1, { initialValue: true })] });
    assert.equal(board.backend.level('gpiochip0', 1), true);
    await again.release();
    assert.equal(failures.length, 1, 'reported once, also after the new chip came and went');
  });

  test('removing a chip directory with rm -rf fails its requests without a spurious edge', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8, gpiochip1: 1 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    const edges: EdgeEvent[] = [];
    let failed: (err: Error) => void = () => {};
    const failure = new Promise<Error>((resolve) => (failed = resolve));
    await requestLines(chip, {
      consumer: 't',
      lines: [input(0, { edges: true }), input(1, { edges: true })],
      onEdge: (e) => edges.push(e),
      onFailure: (e) => failed(e),
    });
    board.backend.drive('gpiochip0', 0, 'pull-up', { atNs: 1n });
    // rm -rf takes the files first: a line directory without `pull` has no level (and no edge).
    // (The pause lets the watch see the directory without `pull` on its own: that is what is tested.)
    unlinkSync(join(board.lineDir('gpiochip0', 0), 'pull'));
    await sleep(20);
    rmSync(join(board.dir, 'gpiochip0'), { recursive: true });
    assert.ok(isCtlError(await failure, 'HW_GONE'));
    // An edge on another chip after it: the watch got past the removal without an edge of the failed request.
    const markers: EdgeEvent[] = [];
    await requestLines(await board.backend.openChip('/dev/gpiochip1'), {
      consumer: 'm',
      lines: [input(0, { edges: true })],
      onEdge: (e) => markers.push(e),
    });
    writeFileSync(join(board.lineDir('gpiochip1', 0), 'pull'), 'pull-up');
    await nextEdge(markers, 1);
    assert.deepEqual(
      edges.map((e) => [e.offset, e.rising]),
      [[0, true]],
    );
  });

  test('a line directory that disappears ends its request with HW_GONE', async (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    let failure: Error | undefined;
    const req = await requestLines(chip, { consumer: 't', lines: [input(5, { edges: true })], onFailure: (e) => (failure = e) });
    rmSync(board.lineDir('gpiochip0', 5), { recursive: true });
    await assert.rejects(req.get(), isCode('HW_GONE'));
    await waitUntil(() => failure !== undefined, 'the failure report');
    assert.ok(isCtlError(failure, 'HW_GONE'));
  });

  test('the in-process controls name missing chips and lines', (t) => {
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    assert.throws(() => board.backend.drive('gpiochip7', 0, 'pull-up'), isCode('HW_GONE'));
    assert.throws(() => board.backend.level('gpiochip0', 99), isCode('HW_IO'));
  });

  test('nothing is scheduled while nothing happens', async (t) => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const board = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const chip = await board.backend.openChip('/dev/gpiochip0');
    const edges: EdgeEvent[] = [];
    const baseline = timers();
    await requestLines(chip, { consumer: 't', lines: [input(0, { edges: true, debounceUs: 2000 })], onEdge: (e) => edges.push(e) });
    assert.equal(timers(), baseline, 'an idle debounced line has no timer');
    board.backend.drive('gpiochip0', 0, 'pull-up');
    assert.equal(timers(), baseline + 1, 'a pending period has one');
    await nextEdge(edges, 1);
    assert.equal(timers(), baseline, 'and it is gone once settled');
  });

  test('backends are independent: state lives in the instance', async (t) => {
    const a = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const b = tempSimBoard(t, { gpiochip0: 8 }, REAL_TIME);
    const ra = await requestLines(await a.backend.openChip('/dev/gpiochip0'), { consumer: 'a', lines: [output(0)] });
    const rb = await requestLines(await b.backend.openChip('/dev/gpiochip0'), { consumer: 'b', lines: [output(0)] });
    await ra.set(new Map([[0, true]]));
    assert.equal(a.backend.level('gpiochip0', 0), true);
    assert.equal(b.backend.level('gpiochip0', 0), false);
    await rb.release();
  });
});
