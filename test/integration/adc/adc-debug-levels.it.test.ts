/**
 * `-d` as in the originals (docs/command-line.md): -1 silences the service's info
 * lines, -2 the MQTT layer's, -3 both; 1 is service debug, 2 MQTT debug, 3 both.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WB_ADC_PARENT } from '../../helpers/fake-iio.js';
import { adcRig } from './adc-rig.js';

const CONFIG = {
  device_name: 'ADCs',
  iio_channels: [{ id: 'p', channel_number: 'voltage1', voltage_multiplier: 1, poll_interval: 50, averaging_window: 1 }],
};

test('-d -1 silences the service info lines and -d -2 the MQTT ones, each only its own', async (t) => {
  const rig = await adcRig(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 100, scale: '1' } } }]);
  const infoOf = async (level: string): Promise<string[]> => {
    const from = rig.recorder.mark();
    const proc = rig.start(CONFIG, undefined, ['-d', level]);
    await rig.waitValue('p', (v) => v === '0.100', { from });
    assert.equal(await proc.stop(), 0);
    return proc
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('INFO: ') && !l.startsWith('INFO: [ctl:host]')); // the host process's own lines (CTL_TEST_IN_HOST)
  };
  const quietService = await infoOf('-1');
  assert.ok(
    quietService.some((l) => l.startsWith('INFO: [ctl:adc:mqtt] connected to')),
    `-d -1 keeps MQTT info:\n${quietService.join('\n')}`,
  );
  assert.ok(!quietService.some((l) => l.startsWith('INFO: [ctl:adc] ')), `-d -1 silences the service info:\n${quietService.join('\n')}`);
  const quietMqtt = await infoOf('-2');
  assert.ok(
    quietMqtt.some((l) => l.startsWith('INFO: [ctl:adc] ')),
    `-d -2 keeps the service info:\n${quietMqtt.join('\n')}`,
  );
  assert.ok(!quietMqtt.some((l) => l.startsWith('INFO: [ctl:adc:mqtt]')), `-d -2 silences MQTT info:\n${quietMqtt.join('\n')}`);
  assert.deepEqual(await infoOf('-3'), []);
});
