import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAdcConfig } from '../../../src/adc/config/load-adc-config.js';
import { createDemoBoard } from '../../../src/demo/demo-board.js';
import { SERVICE_FILES } from '../../../src/demo/demo-paths.js';
import { setIdleLevels } from '../../../src/demo/gpio-activity.js';
import { loadGpioConfig } from '../../../src/gpio/config/load-gpio-config.js';
import { topicLengthCheck } from '../../../src/mqtt/topic-length-limits.js';
import { findIioDevice } from '../../../src/hw/iio/iio-scan.js';

function exampleBoard(t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-demo-board-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const gpio = loadGpioConfig(SERVICE_FILES.gpio.config, SERVICE_FILES.gpio.boardDir, topicLengthCheck()).config;
  const adc = loadAdcConfig(SERVICE_FILES.adc.config, SERVICE_FILES.adc.boardDir, topicLengthCheck()).config;
  return { dir, gpio, adc, board: createDemoBoard(dir, gpio, adc) };
}

test('every GPIO channel of the example configs has a sim line; inputs and outputs split', (t) => {
  const { gpio, board } = exampleBoard(t);
  assert.equal(board.inputs.length + board.outputs.length, gpio.channels.length);
  for (const line of [...board.inputs, ...board.outputs]) {
    assert.ok(existsSync(join(line.lineDir, 'pull')) && existsSync(join(line.lineDir, 'value')), line.lineDir);
  }
  const relay = board.outputs.find((o) => o.channel.name === 'relay1')!;
  assert.equal(relay.lineDir, join(board.gpioSimDir, 'gpiochip0', 'sim_gpio17'));
  assert.equal(readFileSync(join(relay.lineDir, 'name'), 'utf8'), 'relay1\n');
  assert.equal(readFileSync(join(board.gpioSimDir, 'gpiochip0', 'label'), 'utf8'), 'demo-gpiochip0\n');
  // A bank of 32 lines, as a SoC GPIO controller has.
  assert.ok(existsSync(join(board.gpioSimDir, 'gpiochip0', 'sim_gpio31')));
  assert.ok(!existsSync(join(board.gpioSimDir, 'gpiochip0', 'sim_gpio32')));
});

test('inputs rest at the level their counter edge expects', (t) => {
  const { board } = exampleBoard(t);
  setIdleLevels(board.inputs);
  const pull = (name: string) => readFileSync(join(board.inputs.find((i) => i.channel.name === name)!.lineDir, 'pull'), 'utf8').trim();
  assert.equal(pull('A2_IN'), 'pull-up'); // water meter counting falling edges
  assert.equal(pull('A1_IN'), 'pull-down'); // watt meter, edge autodetected
  assert.equal(pull('door'), 'pull-down');
});

test("the fake ADC is found by the service's own match_iio lookup, with every channel", async (t) => {
  const { adc, board } = exampleBoard(t);
  for (const { channel, deviceIndex } of board.analog) {
    const found = await findIioDevice({ sysfsRoot: board.sysfsRoot, matchIio: channel.matchIio });
    assert.equal(found.entry, `iio:device${deviceIndex}`);
    assert.match(found.target, /2198000\.adc/);
    assert.ok(existsSync(join(found.dir, `in_${channel.channel}_raw`)), channel.id);
  }
  assert.equal(board.analog.length, adc.channels.length);
  assert.equal(readFileSync(join(board.iio.device(0).dir, 'in_voltage_scale'), 'utf8'), '0.805664063\n');
});
