/**
 * A disk that fills up and is freed again, with nothing else happening: the save that failed is
 * tried again on its own, so the output level set while the disk was full reaches the file and the
 * device's `w` clears. The disk is a small tmpfs mounted for the test (needs root and a mount the
 * sandbox permits; skipped with the reason otherwise).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MqttRecorder } from '../../helpers/mqtt-recorder.js';
import { createSimBoard } from '../../helpers/sim-board.js';
import { spawnNode } from '../../helpers/spawned.js';
import { startTestBroker } from '../../helpers/test-broker.js';
import { eventually } from '../../helpers/wait-until.js';
import { simGpioArgs } from '../../helpers/sim-gpio-args.js';

const GPIO_MAIN = fileURLToPath(new URL('../../../src/cli/gpio-main.js', import.meta.url));
const DEVICE = '/devices/disk-full';

/** Mounts a 64 KiB tmpfs (mode 0755: a state directory must be private) or says why it cannot. */
function mountSmallTmpfs(dir: string): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0755', 'tmpfs', dir], { encoding: 'utf8' });
  if (r.error !== undefined) return `mount cannot run: ${r.error.message}`;
  if (r.status !== 0) return `mount -t tmpfs is not permitted here: ${r.stderr.trim()}`;
  return undefined;
}

/** Writes a file until the file system has no space left. */
function fillUp(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

const stateDir = mkdtempSync(join(tmpdir(), 'ctl-disk-full-'));
const mountProblem = mountSmallTmpfs(stateDir);
if (mountProblem !== undefined) {
  console.log(`# skipping the full-disk test: ${mountProblem}`);
  rmSync(stateDir, { recursive: true, force: true });
}

test(
  'a save that failed on a full disk is tried again once the disk is freed: the level is saved and w clears',
  {
    skip: mountProblem ?? false,
    timeout: 60_000,
  },
  async (t) => {
    t.after(() => {
      spawnSync('umount', [stateDir]);
      rmSync(stateDir, { recursive: true, force: true });
    });
    const broker = await startTestBroker();
    t.after(() => broker.close());
    const dir = mkdtempSync(join(tmpdir(), 'ctl-disk-full-run-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    createSimBoard(join(dir, 'sim'), { gpiochip0: 4 });
    const config = join(dir, 'gpio.conf');
    writeFileSync(
      config,
      JSON.stringify({
        device_name: 'Disk full',
        channels: [{ name: 'OUT', gpio: { chip: '/dev/gpiochip0', offset: 1 }, direction: 'output' }],
      }),
    );
    const stateFile = join(stateDir, 'state.json');
    const savedLevel = (): boolean | undefined => {
      try {
        return (JSON.parse(readFileSync(stateFile, 'utf8')) as { outputs: Record<string, boolean> }).outputs['OUT'];
      } catch {
        return undefined;
      }
    };
    const recorder = await MqttRecorder.start(broker.url, [`${DEVICE}/#`]);
    t.after(() => recorder.close());
    const service = spawnNode(t, [
      GPIO_MAIN,
      ...simGpioArgs(dir, config, stateFile),
      '--save-interval',
      '0.5',
      '--broker',
      broker.url,
      '--device-id',
      'disk-full',
    ]);
    await recorder.waitForTopic(`${DEVICE}/controls/OUT`, '0', { timeoutMs: 10_000 });
    await recorder.client.publishAsync(`${DEVICE}/controls/OUT/on`, '1', { qos: 1 });
    await eventually('the level 1 saved', () => (savedLevel() === true ? true : undefined));

    const filler = join(stateDir, 'filler');
    fillUp(filler);
    await recorder.client.publishAsync(`${DEVICE}/controls/OUT/on`, '0', { qos: 1 });
    await recorder.waitForTopic(`${DEVICE}/meta/error`, 'w', { timeoutMs: 10_000 });
    assert.match(service.stderr(), /cannot write state file .*state\.json: .*ENOSPC/);
    assert.equal(savedLevel(), true, 'the file still has the level before the disk filled up');

    // The disk is freed; nothing else is sent to the service.
    rmSync(filler);
    const wAt = recorder.messages.findLastIndex((m) => m.topic === `${DEVICE}/meta/error` && m.payload === 'w');
    await recorder.waitForTopic(`${DEVICE}/meta/error`, '', { timeoutMs: 20_000, from: wAt + 1 });
    assert.equal(savedLevel(), false, 'the level set while the disk was full is on disk');
    assert.match(service.stderr(), /state file .*state\.json written again/);
    assert.equal(await service.stop(), 0, service.stderr());
  },
);
