/**
 * A topic the MQTT client cannot encode (over 65,535 bytes, slipped past every check) is one log
 * line: the packet never reaches mqtt.js (which would throw while encoding it, and again each
 * time it resent it), no unhandled rejection, no crash, and the device's other topics still go out.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEVICE, makeDevice, skipWithoutMosquitto, startBroker, startRecorder } from './device-rig.js';
import { waitUntil } from '../../helpers/wait-until.js';

test('a publish the client throws on is one error line, and the process goes on', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const recorder = await startRecorder(t, broker.url, [`/devices/${DEVICE.id}/#`]);
  const { device, log } = makeDevice(t, broker.url);
  device.addControl({ id: 'ok', type: 'switch', readonly: true }).setBoolean(true);
  device.addControl({ id: 'x'.repeat(66_000), type: 'switch', readonly: true });
  device.start();
  // The device meta goes out before the controls.
  await recorder.waitForTopic(`/devices/${DEVICE.id}/meta/driver`, DEVICE.driver);
  await waitUntil(() => log.lines.some((l) => l.includes('cannot publish')), 'the publish refused', {
    timeoutMs: 5000,
    intervalMs: 20,
  }).catch((err: Error) => assert.fail(`${err.message}:\n${log.lines.join('\n')}`));
  const errors = log.lines.filter((l) => l.includes('cannot publish'));
  assert.ok(errors.length >= 1, log.lines.join('\n'));
  assert.match(
    errors[0]!,
    /^ERROR: .*cannot publish \/devices\/ctl-test\/controls\/x{50,}\.\.\.: the topic is 660\d\d bytes of UTF-8; MQTT allows 65535$/,
  );
  await recorder.waitForTopic(`/devices/${DEVICE.id}/controls/ok`, '1');
  assert.ok(errors[0]!.length < 400);
});

test(
  'a value the client could not send is not taken as sent: the same value set again is tried again',
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    const { device, log } = makeDevice(t, broker.url);
    const control = device.addControl({ id: 'x'.repeat(66_000), type: 'switch', readonly: true });
    device.start();
    await device.whenOnline();
    const refusals = (): number => log.lines.filter((l) => l.includes('cannot publish')).length;
    const atConnect = refusals();
    control.setBoolean(true);
    assert.equal(refusals(), atConnect + 1, 'the value was handed to the connection, which could not send it');
    // Taken as sent, the unchanged value would be skipped here (published on change only).
    control.setBoolean(true);
    assert.equal(refusals(), atConnect + 2, log.lines.join('\n'));
  },
);
