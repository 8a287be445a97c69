/**
 * A save's hardware check: the channels of an edited config against the lists the services print
 * (`--list-lines`, `--list-channels`), each problem a `-J`-style line with the field's path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adcProblems, gpioProblems, listHardware } from '../../../../src/console/config/hardware-check.js';
import type { GpioChipInfo } from '../../../../src/console/common/config-page-model.js';

const line = (offset: number, used = false, consumer = '') => ({ offset, name: '', consumer, direction: 'input', used, active_low: false });
const chips: GpioChipInfo[] = [
  {
    path: '/dev/gpiochip0',
    name: 'gpiochip0',
    label: 'soc',
    lines: 32,
    line_info: [...Array(32).keys()].map((o) =>
      o === 5 ? line(5, true, 'kernel-led') : o === 6 ? line(6, true, 'ctl-mqtt-gpio') : line(o),
    ),
  },
];
const gpio = (chip: string, offset: number) => ({ name: 'x', gpio: { chip, offset }, direction: 'input' });

test('a line past the chip end, a missing chip, a line held by another program: one line each at its field', () => {
  const config = {
    channels: [
      { name: 'A1_IN' },
      gpio('/dev/gpiochip0', 40),
      gpio('/dev/gpiochip7', 1),
      gpio('/dev/gpiochip0', 5),
      gpio('/dev/gpiochip0', 6),
      gpio('/dev/gpiochip0', 31),
    ],
  };
  assert.deepEqual(gpioProblems(config, chips), [
    'channels[1].gpio.offset: /dev/gpiochip0 has 32 lines (offsets 0 to 31): there is no line 40',
    'channels[2].gpio.chip: there is no GPIO chip /dev/gpiochip7 on this controller (it has /dev/gpiochip0)',
    'channels[3].gpio.offset: line 5 of /dev/gpiochip0 is held by another program ("kernel-led")',
  ]);
});

test('ADC: a channel no matching device has, a pattern no device matches', () => {
  const devices = [
    {
      device: 'iio:device0',
      target: '../../devices/platform/soc/2080000.adc/iio:device0',
      name: 'adc',
      channels: [{ channel: 'voltage1' }, { channel: 'voltage2' }],
    },
  ];
  const config = {
    iio_channels: [
      { id: 'a', channel_number: 'voltage1' },
      { id: 'b', channel_number: 9 },
      { id: 'c', channel_number: 'voltage1', match_iio: '*i2c*' },
      { id: 'd', channel_number: 'voltage2', match_iio: '*2080000.adc*' },
    ],
  };
  assert.deepEqual(adcProblems(config, devices), [
    'iio_channels[1].channel_number: iio:device0 has no IIO channel voltage9 (it has voltage1, voltage2)',
    'iio_channels[2].match_iio: no IIO device of this controller matches *i2c* (no iio:deviceN link target matches **i2c**)',
  ]);
});

test("ADC: a channel's device is the one the service reads (match_iio as *pattern*, numeric order, first match)", () => {
  const adc = (n: number, parent: string, channels: string[], error?: string) => ({
    device: `iio:device${n}`,
    target: `../../../devices/${parent}/iio:device${n}`,
    name: '',
    channels: channels.map((channel) => ({ channel })),
    ...(error === undefined ? {} : { error }),
  });
  // Listed out of order on purpose: the service tries iio:device2 before iio:device10.
  const devices = [adc(10, 'platform/soc/2198000.adc', ['voltage5']), adc(2, 'platform/soc/2080000.adc', ['voltage1'])];
  const channel = (match_iio: string | undefined, channel_number: string) => ({
    id: 'x',
    channel_number,
    ...(match_iio === undefined ? {} : { match_iio }),
  });
  const problems = (...iio_channels: object[]) => adcProblems({ iio_channels }, devices);
  assert.deepEqual(problems(channel('2198000.adc', 'voltage5'), channel('soc/2080000.adc/iio:device?', 'voltage1')), []);
  assert.deepEqual(problems(channel('.adc', 'voltage5')), [
    'iio_channels[0].channel_number: iio:device2 has no IIO channel voltage5 (it has voltage1)',
  ]);
  assert.deepEqual(problems(channel(undefined, 'voltage1')), [
    'iio_channels[0].match_iio: there is no IIO device iio:device0 on this controller (the device an empty match_iio means)',
  ]);
  assert.deepEqual(adcProblems({ iio_channels: [channel('2198000.adc', 'voltage7')] }, [adc(0, 'soc/2198000.adc', [], 'EACCES')]), []);
});

test('ADC: a pattern that made a regular expression backtrack is checked at once', () => {
  const devices = [{ device: 'iio:device0', target: `../../../devices/platform/soc/${'a'.repeat(200)}/iio:device0`, name: '' }];
  const pattern = `${'?*'.repeat(40)}Z`;
  const started = performance.now();
  assert.equal(adcProblems({ iio_channels: [{ id: 'x', channel_number: 1, match_iio: pattern }] }, devices).length, 1);
  assert.ok(performance.now() - started < 1000, 'does not hang');
});

test('a binary without the listing (usage error, exit 2) means no list, not a failed save', async () => {
  const older = [process.execPath, '-e', 'process.stderr.write("unknown option \'--list-lines\'\\n"); process.exit(2)'];
  const answer = await listHardware(older);
  assert.equal(answer.available, false);
  const listed = await listHardware([process.execPath, '-e', `process.stdout.write(${JSON.stringify(JSON.stringify({ chips }))})`]);
  assert.equal(listed.available, true);
  assert.equal(listed.available && 'chips' in listed.list ? listed.list.chips[0]!.lines : 0, 32);
});
