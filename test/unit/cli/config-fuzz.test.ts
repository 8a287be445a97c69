/**
 * Deterministic fuzzing of the configuration path: random mutations of valid configs (values and
 * raw text) go through `-j` and `-J` of both binaries in-process. Every run must end in exit 0
 * with JSON on stdout, or exit 6 with readable problem lines and nothing on stdout; never a crash,
 * a stack trace or an "internal error". The build-time validator must also agree with strict Ajv
 * compiling the shipped schema (editor keywords do not disturb validation).
 *
 * CTL_FUZZ_ITERATIONS sets the mutations per driver (default 1000); CTL_FUZZ_SEED the seed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import * as adcGenerated from '../../../src/adc/config/schema-module/adc-schema.js';
import { parseJsonc, type JsonValue } from '../../../src/core/config/jsonc.js';
import * as gpioGenerated from '../../../src/gpio/config/schema-module/gpio-schema.js';
import { runMain } from './cli-rig.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const ITERATIONS = Number(process.env.CTL_FUZZ_ITERATIONS ?? 1000);
const SEED = Number(process.env.CTL_FUZZ_SEED ?? 20240611);

/** mulberry32: a small deterministic generator. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = [
  'device_name',
  'debug',
  'max_unchanged_interval',
  'channels',
  'iio_channels',
  'name',
  'id',
  'gpio',
  'chip',
  'offset',
  'direction',
  'inverted',
  'type',
  'edge',
  'multiplier',
  'decimal_points_current',
  'decimal_points_total',
  'open_drain',
  'open_source',
  'initial_state',
  'load_previous_state',
  'debounce',
  'channel_number',
  'match_iio',
  'voltage_multiplier',
  'max_voltage',
  'mqtt_type',
  'averaging_window',
  'decimal_places',
  'scale',
  'poll_interval',
  'delay_between_measurements',
  'readings_number',
  '__proto__',
  'constructor',
  '',
  'x y',
];
const VALUES: JsonValue[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  4,
  5,
  1.5,
  -0.5,
  1e300,
  2 ** 53,
  '',
  'x',
  'A1_IN',
  'A1_OUT',
  '5V_OUT',
  'Vin',
  'A1',
  'a/b',
  '#',
  '\u0000',
  'voltage3',
  'in_voltage3',
  'voltage3_raw',
  '/dev/gpiochip0',
  'input',
  'output',
  'watt_meter',
  'water_meter',
  'both',
  'current',
  [],
  {},
  { chip: '/dev/gpiochip0', offset: 1 },
  { chip: '/dev/gpiochip1', offset: 0 },
  [{ name: 'A1_IN' }],
  { name: 'x', gpio: 3, direction: 'input' },
  { id: 'y', channel_number: 2, voltage_multiplier: 1 },
];
const TEXT_CHARS = ['{', '}', '[', ']', ',', ':', '"', '/', '*', '\n', '-', '0', 'e', '\\', '\u0001'];

type Container = JsonValue[] | Record<string, JsonValue>;

function nodesOf(value: JsonValue, out: Container[] = []): Container[] {
  if (Array.isArray(value)) {
    out.push(value);
    value.forEach((v) => nodesOf(v, out));
  } else if (value !== null && typeof value === 'object') {
    out.push(value);
    Object.values(value).forEach((v) => nodesOf(v, out));
  }
  return out;
}

function mutateValue(root: JsonValue, rnd: () => number): JsonValue {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const nodes = nodesOf(root);
  const node = pick(nodes);
  const value = structuredClone(pick(VALUES));
  if (Array.isArray(node)) {
    const i = Math.floor(rnd() * (node.length + 1));
    const op = rnd();
    if (op < 0.3 && node.length > 0) node.splice(Math.min(i, node.length - 1), 1);
    else if (op < 0.5 && node.length > 0) node.push(structuredClone(node[Math.min(i, node.length - 1)]!));
    else if (op < 0.7) node.splice(i, 0, value);
    else if (node.length > 0) node[Math.min(i, node.length - 1)] = value;
  } else {
    const keys = Object.keys(node);
    const op = rnd();
    const key = keys.length > 0 && op < 0.6 ? pick(keys) : pick(KEYS);
    if (op < 0.25) delete node[key];
    else Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return root;
}

function mutateText(text: string, rnd: () => number): string {
  const at = Math.floor(rnd() * (text.length + 1));
  const op = rnd();
  if (op < 0.4) return text.slice(0, at) + text.slice(at + 1);
  if (op < 0.8) return text.slice(0, at) + TEXT_CHARS[Math.floor(rnd() * TEXT_CHARS.length)] + text.slice(at);
  return text.slice(0, at);
}

const OK_STDERR_LINE = /^(\S[^:]*:\d+:\d+: .+?: \S.*|\.\.\. and \d+ more|\S[^:]*: cannot read .*)$/;

function assertOutcome(what: string, r: { code: number; stdout: string; stderr: string }): void {
  if (r.code === 0) {
    assert.equal(r.stderr, '', what);
    JSON.parse(r.stdout);
    return;
  }
  assert.equal(r.code, 6, `${what}\n${r.stderr}`);
  assert.equal(r.stdout, '', what);
  const lines = r.stderr.trimEnd().split('\n');
  assert.ok(lines.length >= 1 && lines.length <= 51, what);
  for (const line of lines) {
    assert.match(line, OK_STDERR_LINE, what);
    assert.doesNotMatch(line, /internal error|^\s+at |\[object Object\]|undefined \(got/, what);
  }
}

function fullSchemaValidator(driver: 'gpio' | 'adc') {
  const ajv = new Ajv.default({ strict: true, allErrors: true });
  ajv.addVocabulary(['options', 'propertyOrder', '_format', 'headerTemplate', 'configFile', 'translations', 'defaultProperties']);
  return ajv.compile(JSON.parse(readFileSync(join(ROOT, `schemas/ctl-mqtt-${driver}.schema.json`), 'utf8')));
}

for (const driver of ['gpio', 'adc'] as const) {
  test(`fuzz ${driver}: ${ITERATIONS} mutations of valid configs end in exit 0 or 6 with readable messages`, async () => {
    const board = join(ROOT, `examples/board/ctl-mqtt-${driver}/conf.d`);
    const seedText = readFileSync(join(ROOT, `examples/ctl-mqtt-${driver}.conf`), 'utf8');
    const seedValue = parseJsonc(seedText).value!;
    const full = fullSchemaValidator(driver);
    const lean = driver === 'gpio' ? gpioGenerated.config : adcGenerated.config;
    const rnd = random(SEED + (driver === 'gpio' ? 0 : 1));
    const outcomes = { 0: 0, 6: 0 } as Record<number, number>;
    for (let i = 0; i < ITERATIONS; i++) {
      let value: JsonValue = structuredClone(seedValue);
      const steps = 1 + Math.floor(rnd() * 3);
      for (let s = 0; s < steps; s++) value = mutateValue(value, rnd);
      let text = rnd() < 0.5 ? JSON.stringify(value, null, 2) : JSON.stringify(value);
      if (rnd() < 0.2) text = mutateText(text, rnd);
      const parsed = parseJsonc(text).value;
      if (parsed !== undefined) assert.equal(lean(parsed), full(parsed), `validators disagree on ${text}`);
      const mode = rnd() < 0.5 ? '-j' : '-J';
      const r = await runMain(driver, [mode, '--system-config-dir', board], { stdin: text });
      assertOutcome(`#${i} ${mode} ${text}`, r);
      outcomes[r.code] = (outcomes[r.code] ?? 0) + 1;
    }
    // Both outcomes must occur, or the mutations are not testing anything.
    assert.ok(outcomes[0]! > ITERATIONS / 20 && outcomes[6]! > ITERATIONS / 20, JSON.stringify(outcomes));
  });
}
