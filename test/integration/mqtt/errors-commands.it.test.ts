import { test } from 'node:test';
import assert from 'node:assert/strict';
import { publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import type { CommandHandler } from '../../../src/mqtt/mqtt-device.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { DEVICE, makeDevice, skipWithoutMosquitto, startBroker, startRecorder, threeControls } from './device-rig.js';

const base = `/devices/${DEVICE.id}`;

test('errors: set/clear order, last good value kept, w only cleared by the caller', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const recorder = await startRecorder(t, broker.url, [`${base}/#`]);
  const { device } = makeDevice(t, broker.url);
  const [inSpec, outSpec, vSpec] = threeControls();
  device.addControl(inSpec!);
  const out = device.addControl(outSpec!);
  const v = device.addControl(vSpec!);
  out.setBoolean(false);
  v.setNumber(1);
  device.start();
  await recorder.waitForTopic(`${base}/controls/V1`, '1.00');

  const mark = recorder.mark();
  v.setError('r', true);
  out.setError('w', true);
  device.setError('r', true);
  await recorder.waitForTopic(`${base}/meta/error`, 'r', { from: mark });
  const retained = await retainedSnapshot(broker.url, `${base}/#`);
  assert.equal(retained.get(`${base}/controls/V1`), '1.00', 'the last good value stays while r is set');
  assert.equal(retained.get(`${base}/controls/V1/meta/error`), 'r');
  assert.equal(retained.get(`${base}/controls/OUT1/meta/error`), 'w');

  const recovery = recorder.mark();
  v.setNumber(1.5);
  out.setBoolean(true); // a value does not clear w
  out.setError('w', false);
  device.setError('r', false);
  await recorder.waitForTopic(`${base}/meta/error`, '', { from: recovery });
  assert.deepEqual(
    recorder.since(recovery).map((m) => [m.topic, m.payload, m.retain]),
    [
      [`${base}/controls/V1/meta/error`, '', true],
      [`${base}/controls/V1`, '1.50', true],
      [`${base}/controls/OUT1`, '1', true],
      [`${base}/controls/OUT1/meta/error`, '', true],
      [`${base}/meta/error`, '', true],
    ],
  );
  const after = await retainedSnapshot(broker.url, `${base}/#`);
  assert.equal(after.has(`${base}/meta/error`), false, 'an empty retained publish deletes the error');
  assert.equal(after.has(`${base}/controls/V1/meta/error`), false);
});

test(
  'commands: applied, invalid ones logged once and the true value republished, retained ones ignored',
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    // A stale retained command from an earlier session must never reach the hardware.
    await publishOnce(broker.url, `${base}/controls/OUT1/on`, '1', { retain: true });
    const recorder = await startRecorder(t, broker.url, [`${base}/#`]);
    const handled: string[] = [];
    let setOut: (v: boolean) => void = () => {};
    const onCommand: CommandHandler = (payload) => {
      handled.push(payload);
      if (payload !== '0' && payload !== '1') return { reject: 'expected 0 or 1' };
      setOut(payload === '1');
      return undefined;
    };
    const { device, log } = makeDevice(t, broker.url);
    const [inSpec, outSpec] = threeControls(onCommand);
    device.addControl(inSpec!).setBoolean(false);
    const out = device.addControl(outSpec!);
    setOut = (v) => out.setBoolean(v);
    out.setBoolean(false);
    device.start();
    await device.whenOnline();
    await recorder.waitForTopic(`${base}/controls/OUT1`, '0');

    let mark = recorder.mark();
    await publishOnce(broker.url, `${base}/controls/OUT1/on`, 'banana');
    await recorder.waitForTopic(`${base}/controls/OUT1`, '0', { from: mark });
    assert.deepEqual(
      recorder
        .since(mark)
        .filter((m) => !m.topic.endsWith('/on'))
        .map((m) => [m.topic, m.payload, m.retain]),
      [[`${base}/controls/OUT1`, '0', true]],
      'the true value is republished, no w',
    );
    assert.equal(log.lines.filter((l) => l.includes('invalid command "banana"')).length, 1);

    mark = recorder.mark();
    await publishOnce(broker.url, `${base}/controls/OUT1/on`, '1', { qos: 0 });
    await recorder.waitForTopic(`${base}/controls/OUT1`, '1', { from: mark });
    // A command to a readonly control is not for us.
    await publishOnce(broker.url, `${base}/controls/IN1/on`, '1');
    // A command after it: once that one is handled, the one to IN1 has come and gone.
    await publishOnce(broker.url, `${base}/controls/OUT1/on`, '0');
    await waitUntil(() => handled.length >= 3, 'the command after the one to IN1');
    assert.deepEqual(handled, ['banana', '1', '0'], 'the retained "1" from before the start was never handed over');
    assert.ok(log.lines.some((l) => l.startsWith('DEBUG:') && l.includes('ignoring retained command "1"')));
    assert.equal(device.control('IN1')?.value, '0');
  },
);
