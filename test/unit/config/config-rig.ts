/**
 * Helpers of the configuration tests: temp dirs with board files, loading a config given as a
 * value or a text through the real pipeline, and reading the problems of a ConfigError.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { adcConfigSpec } from '../../../src/adc/config/adc-config-spec.js';
import type { AdcConfig } from '../../../src/adc/config/adc-config-model.js';
import { loadConfigText } from '../../helpers/load-config-text.js';
import type { Loaded } from '../../../src/core/config/pipeline.js';
import { ConfigError } from '../../../src/core/errors.js';
import { gpioConfigSpec } from '../../../src/gpio/config/gpio-config-spec.js';
import type { GpioConfig } from '../../../src/gpio/config/gpio-config-model.js';
import { topicLengthCheck } from '../../../src/mqtt/topic-length-limits.js';

/** A temp dir removed after the test. */
export function tempDir(t: TestContext, prefix = 'ctl-config-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes files (name → text, or a value written as JSON) into a new dir under `root`. */
export function writeDir(root: string, name: string, files: Record<string, unknown>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    writeFileSync(join(dir, file), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

const textOf = (main: unknown) => (typeof main === 'string' ? main : JSON.stringify(main, null, 2));

export function loadGpio(main: unknown, boardDir: string | null = null): Loaded<GpioConfig> {
  return loadConfigText(gpioConfigSpec, 'main.conf', textOf(main), boardDir, topicLengthCheck());
}

export function loadAdc(main: unknown, boardDir: string | null = null): Loaded<AdcConfig> {
  return loadConfigText(adcConfigSpec, 'main.conf', textOf(main), boardDir, topicLengthCheck());
}

/** The problem lines of a load that must fail. */
export function problemsOf(load: () => unknown): readonly string[] {
  try {
    load();
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected a ConfigError, got ${String(err)}`);
    return err.problems;
  }
  assert.fail('the configuration was accepted');
}

/** Asserts that loading fails with exactly one problem matching `pattern`; returns it. */
export function oneProblem(load: () => unknown, pattern: RegExp): string {
  const problems = problemsOf(load);
  assert.equal(problems.length, 1, `expected one problem, got:\n${problems.join('\n')}`);
  assert.match(problems[0]!, pattern);
  return problems[0]!;
}

/** A minimal valid GPIO config with these channels. */
export function gpioDoc(channels: unknown[], top: Record<string, unknown> = {}): Record<string, unknown> {
  return { device_name: 'GPIOs', ...top, channels };
}

/** A minimal valid ADC config with these channels. */
export function adcDoc(channels: unknown[], top: Record<string, unknown> = {}): Record<string, unknown> {
  return { device_name: 'ADCs', ...top, iio_channels: channels };
}

/** A valid custom GPIO channel, with overrides. */
export function customGpio(extra: Record<string, unknown> = {}, offset = 1): Record<string, unknown> {
  return { name: `ch${offset}`, gpio: { chip: '/dev/gpiochip0', offset }, direction: 'input', ...extra };
}

/** A valid custom ADC channel, with overrides. */
export function customAdc(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'adc1', channel_number: 'voltage1', voltage_multiplier: 1, ...extra };
}

/** A board dir with every reserved GPIO name defined (inputs on chip 0, outputs on chip 1). */
export function gpioBoard(t: TestContext): string {
  const inputs = ['A1_IN', 'A2_IN', 'A3_IN', 'A4_IN'].map((name, i) => ({
    name,
    gpio: { chip: '/dev/gpiochip0', offset: 100 + i },
    direction: 'input',
  }));
  const outputs = ['A1_OUT', 'A2_OUT', 'A3_OUT', 'A4_OUT', '5V_OUT', 'V_OUT'].map((name, i) => ({
    name,
    gpio: { chip: '/dev/gpiochip1', offset: i },
    direction: 'output',
  }));
  return writeDir(tempDir(t), 'conf.d', { 'system.conf': { channels: [...inputs, ...outputs] } });
}

/** A board dir with every reserved ADC id defined (voltage1..9, decimal places on some). */
export function adcBoard(t: TestContext): string {
  const ids = ['Vin', 'V3_3', 'V5_0', 'Vbus_debug', 'Vbus_network', 'A1', 'A2', 'A3', 'A4'];
  const channels = ids.map((id, i) => ({
    id,
    match_iio: 'adc',
    channel_number: `voltage${i + 1}`,
    voltage_multiplier: 2,
    ...(i < 5 ? { decimal_places: 2 } : {}),
  }));
  return writeDir(tempDir(t), 'conf.d', { 'system.conf': { iio_channels: channels } });
}
