/**
 * Every edit tried in Wiren Board's config editor (the 39 actions G1..G23, A1..A16) ends the same
 * way in the editor and in `-J`: both accept it or both refuse it. The editor is modelled on
 * homeui's json-editor fork as its sources say, on a board shaped like a Wiren Board controller:
 * - it starts from what `-j` gives, with the copy of the schema `--generate-board` writes for the
 *   board (the board's names in its lists, the editor edits of src/cli/board/);
 * - top-level settings it was handed without get their defaults (they are required in the copy);
 * - a system channel (`merge-default`) leaves out every value equal to its object `default`;
 * - it validates the whole value with the copy, with the keywords it implements as JSON Schema
 *   does (the last test checks the copy uses no other), so Ajv stands in for its validator.
 * `-J` is the real conversion, in process, with the board directory, as wb-mqtt-confed runs it
 * (`-J --from-editor`, the copy's `configFile.fromJSON`).
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { adcConfigSpec } from '../../../src/adc/config/adc-config-spec.js';
import { ADC_EDITOR_EDITS } from '../../../src/cli/board/adc-editor-schema.js';
import { editorSchemaText } from '../../../src/cli/board/board-editor-schema.js';
import { GPIO_EDITOR_EDITS } from '../../../src/cli/board/gpio-editor-schema.js';
import { editorJsonOf, storedJsonOf } from '../../../src/core/config/config-entry-points.js';
import type { DriverConfigSpec } from '../../../src/core/config/driver-config-spec.js';
import { gpioConfigSpec } from '../../../src/gpio/config/gpio-config-spec.js';
import { topicLengthCheck } from '../../../src/mqtt/topic-length-limits.js';
import { loadAdc, tempDir, writeDir } from './config-rig.js';

type Obj = Record<string, unknown>;
type Doc = Obj & { channels?: Obj[]; iio_channels?: Obj[] };
const ROOT = new URL('../../../../', import.meta.url);
const shipped = (binary: string) => readFileSync(new URL(`schemas/${binary}.schema.json`, ROOT), 'utf8');

/** A board shaped like a Wiren Board controller's (names as its device tree gives them). */
const chip = (n: number, offset: number) => ({ chip: `/dev/gpiochip${n}`, offset });
const GPIO_BOARD = {
  channels: [
    { name: 'D1_IN', gpio: chip(0, 1), direction: 'input', inverted: true },
    { name: 'D2_IN', gpio: chip(0, 2), direction: 'input', inverted: true },
    { name: 'D1_OUT', gpio: chip(0, 3), direction: 'output', inverted: false, initial_state: false },
    { name: 'Relay_1', gpio: chip(0, 4), direction: 'output', inverted: false, initial_state: false },
    { name: '5V_OUT', gpio: chip(0, 5), direction: 'output', inverted: false, initial_state: true },
    { name: 'EXT1_IN1', gpio: chip(2, 0), direction: 'input', inverted: false },
    { name: 'EXT1_K1', gpio: chip(2, 8), direction: 'output', inverted: false, initial_state: false },
  ],
};
const ADC_BOARD = {
  iio_channels: [
    { id: '5Vout', match_iio: '2198000.adc', channel_number: 'voltage1', voltage_multiplier: 2, averaging_window: 20, decimal_places: 2 },
    { id: 'Vin', match_iio: '2198000.adc', channel_number: 'voltage2', voltage_multiplier: 11, decimal_places: 1 },
    { id: 'V3_3', match_iio: '2198000.adc', channel_number: 'voltage3', voltage_multiplier: 2, decimal_places: 2 },
    { id: 'EXT1_ADC1', match_iio: '2198000.adc', channel_number: 'voltage4', voltage_multiplier: 1 },
  ],
};
/** The stored configs the actions start from (the examples' custom channels). */
const GPIO_MAIN = {
  device_name: 'Discrete I/O',
  channels: [
    { name: 'door', gpio: chip(0, 16), direction: 'input', debounce: 20000 },
    { name: 'relay1', gpio: chip(0, 17), direction: 'output' },
  ],
};
const ADC_MAIN = {
  device_name: 'ADCs',
  max_unchanged_interval: 60,
  iio_channels: [{ id: 'pressure', channel_number: 'voltage5', voltage_multiplier: 1 }],
};

const names = (board: { channels: Obj[] }, pick: (c: Obj) => boolean) => board.channels.filter(pick).map((c) => c.name as string);
const GPIO_COPY = editorSchemaText(shipped('ctl-mqtt-gpio'), GPIO_EDITOR_EDITS, [
  { path: ['definitions', 'reserved_name', 'enum'], names: names(GPIO_BOARD, () => true) },
  { path: ['definitions', 'system_input', 'properties', 'name', 'enum'], names: names(GPIO_BOARD, (c) => c.direction === 'input') },
  { path: ['definitions', 'system_output', 'properties', 'name', 'enum'], names: names(GPIO_BOARD, (c) => c.direction === 'output') },
]);
const ADC_IDS = ADC_BOARD.iio_channels.map((c) => c.id);
const ADC_COPY = editorSchemaText(shipped('ctl-mqtt-adc'), ADC_EDITOR_EDITS, [
  { path: ['definitions', 'reserved_id', 'enum'], names: ADC_IDS },
  { path: ['definitions', 'system_channel', 'properties', 'id', 'enum'], names: ADC_IDS },
]);

function validatorOf(copyText: string) {
  const ajv = new Ajv.default({ strict: true, allErrors: true });
  ajv.addVocabulary(['options', 'propertyOrder', '_format', 'headerTemplate', 'configFile', 'translations', 'defaultProperties']);
  return ajv.compile(JSON.parse(copyText) as Obj);
}

interface Driver {
  spec: DriverConfigSpec<unknown>;
  copy: Obj;
  validate: ReturnType<typeof validatorOf>;
  board: Obj;
  main: Obj;
  listKey: 'channels' | 'iio_channels';
  idKey: 'name' | 'id';
}
const DRIVERS: Record<'gpio' | 'adc', Driver> = {
  gpio: {
    spec: gpioConfigSpec as DriverConfigSpec<unknown>,
    copy: JSON.parse(GPIO_COPY) as Obj,
    validate: validatorOf(GPIO_COPY),
    board: GPIO_BOARD,
    main: GPIO_MAIN,
    listKey: 'channels',
    idKey: 'name',
  },
  adc: {
    spec: adcConfigSpec as DriverConfigSpec<unknown>,
    copy: JSON.parse(ADC_COPY) as Obj,
    validate: validatorOf(ADC_COPY),
    board: ADC_BOARD,
    main: ADC_MAIN,
    listKey: 'iio_channels',
    idKey: 'id',
  },
};

/** The variant of the copy a row was built as: system when its name is a board name of that kind. */
function systemVariantOf(driver: Driver, item: Obj): Obj | undefined {
  const defs = driver.copy.definitions as Record<string, Obj>;
  for (const v of ['system_input', 'system_output', 'system_channel']) {
    const def = defs[v];
    const ids = ((def?.properties as Record<string, Obj> | undefined)?.[driver.idKey]?.enum ?? []) as string[];
    if (def && ids.includes(item[driver.idKey] as string) && !('gpio' in item) && !('channel_number' in item)) return def;
  }
  return undefined;
}

/** What the editor hands homeui for this document: defaults of required settings, merge-default subtraction. */
function editorValue(driver: Driver, doc: Doc): Doc {
  const value = structuredClone(doc);
  const rootProps = driver.copy.properties as Record<string, Obj>;
  for (const key of driver.copy.required as string[]) {
    if (!(key in value) && 'default' in rootProps[key]!) value[key] = rootProps[key]!.default;
  }
  value[driver.listKey] = (value[driver.listKey] as Obj[]).map((item) => {
    const def = systemVariantOf(driver, item);
    if (!def) return item;
    const defaults = (def.default ?? {}) as Obj;
    return Object.fromEntries(
      Object.entries(item).filter(([k, v]) => !(k in defaults) || JSON.stringify(defaults[k]) !== JSON.stringify(v)),
    );
  });
  return value;
}

interface Action {
  id: string;
  driver: 'gpio' | 'adc';
  what: string;
  /** The edit, on the document `-j` gave. */
  edit(doc: Doc): void;
  /** Whether both must accept it (true) or both refuse it (false). */
  saves: boolean;
  /** Checks of what `-J` wrote, when it saves. */
  written?(stored: Doc): void;
}

const byId = (doc: Doc, key: 'channels' | 'iio_channels', idKey: string, id: string) => {
  const found = (doc[key] as Obj[]).find((c) => c[idKey] === id);
  assert.ok(found, `no channel ${id}`);
  return found;
};
const gpioCh = (doc: Doc, name: string) => byId(doc, 'channels', 'name', name);
const adcCh = (doc: Doc, id: string) => byId(doc, 'iio_channels', 'id', id);
const addGpio = (doc: Doc, ch: Obj) => doc.channels!.push(ch);
const addAdc = (doc: Doc, ch: Obj) => doc.iio_channels!.push(ch);
/** A new custom GPIO as the editor builds it (every field with its default), then filled in. */
const newGpio = (fill: Obj): Obj => ({ name: '', gpio: { chip: '', offset: 0 }, direction: 'input', inverted: false, type: '', ...fill });
/** A new custom ADC channel as the editor builds it (its shown fields with their defaults), then filled in. */
const newAdc = (fill: Obj): Obj => ({
  id: '',
  channel_number: '',
  voltage_multiplier: 1,
  averaging_window: 10,
  decimal_places: 3,
  scale: 0,
  poll_interval: 700,
  delay_between_measurements: 10,
  ...fill,
});
const meter = (fill: Obj): Obj =>
  newGpio({ type: 'watt_meter', multiplier: 1, decimal_points_current: 2, decimal_points_total: 2, ...fill });

const ACTIONS: Action[] = [
  {
    id: 'G1',
    driver: 'gpio',
    what: 'add custom output',
    saves: true,
    edit: (d) => addGpio(d, newGpio({ name: 'lamp', gpio: chip(0, 20), direction: 'output' })),
  },
  {
    id: 'G2',
    driver: 'gpio',
    what: 'add custom input meter (edge opt-in)',
    saves: true,
    edit: (d) => addGpio(d, meter({ name: 'power', gpio: chip(0, 21), edge: 'falling' })),
  },
  {
    id: 'G3',
    driver: 'gpio',
    what: 'add custom, deprecated GPIO number',
    saves: true,
    edit: (d) => addGpio(d, newGpio({ name: 'old', gpio: 42 })),
  },
  { id: 'G4', driver: 'gpio', what: 'add, fill nothing', saves: false, edit: (d) => addGpio(d, newGpio({})) },
  {
    id: 'G5',
    driver: 'gpio',
    what: 'add custom named like a board channel (D1_OUT)',
    saves: false,
    edit: (d) => addGpio(d, newGpio({ name: 'D1_OUT', gpio: chip(0, 22), direction: 'output' })),
  },
  // Both take it: the editor checks each channel alone; the service reports the name given twice.
  {
    id: 'G6',
    driver: 'gpio',
    what: 'add custom with a duplicate name (door)',
    saves: true,
    edit: (d) => addGpio(d, newGpio({ name: 'door', gpio: chip(0, 23) })),
  },
  {
    id: 'G7',
    driver: 'gpio',
    what: 'system outputs: tick/untick checkboxes',
    saves: true,
    edit: (d) => {
      Object.assign(gpioCh(d, 'Relay_1'), { initial_state: true, load_previous_state: false });
      Object.assign(gpioCh(d, 'EXT1_K1'), { load_previous_state: true });
    },
    written: (s) => assert.deepEqual(gpioCh(s, 'Relay_1'), { name: 'Relay_1', initial_state: true, load_previous_state: false }),
  },
  {
    id: 'G8',
    driver: 'gpio',
    what: 'meter types changed',
    saves: true,
    edit: (d) => {
      Object.assign(gpioCh(d, 'D1_IN'), { type: 'water_meter', multiplier: 10 });
      Object.assign(gpioCh(d, 'EXT1_IN1'), { type: 'watt_meter', multiplier: 1000 });
    },
  },
  {
    id: 'G9',
    driver: 'gpio',
    what: 'delete the custom channel',
    saves: true,
    edit: (d) => void d.channels!.splice(d.channels!.indexOf(gpioCh(d, 'relay1')), 1),
  },
  {
    id: 'G10',
    driver: 'gpio',
    what: 'custom input -> output (meter fields hidden)',
    saves: true,
    // Fields whose dependencies fail give no value: the meter fields go with the direction.
    edit: (d) => Object.assign(gpioCh(d, 'door'), { direction: 'output' }),
  },
  {
    id: 'G11',
    driver: 'gpio',
    what: '5V_OUT (board: initial high) shown and set to low',
    saves: true,
    edit: (d) => {
      assert.equal(gpioCh(d, '5V_OUT').initial_state, true, 'the editor shows the board start level');
      gpioCh(d, '5V_OUT').initial_state = false;
    },
    written: (s) => assert.deepEqual(gpioCh(s, '5V_OUT'), { name: '5V_OUT', initial_state: false }),
  },
  {
    id: 'G12',
    driver: 'gpio',
    what: 'custom GPIO: Properties dialog (open_drain)',
    saves: true,
    edit: (d) => Object.assign(gpioCh(d, 'relay1'), { open_drain: true }),
    written: (s) => assert.equal(gpioCh(s, 'relay1').open_drain, true),
  },
  {
    id: 'G13',
    driver: 'gpio',
    what: 'existing custom input (door): make it a meter',
    saves: true,
    edit: (d) => Object.assign(gpioCh(d, 'door'), { type: 'water_meter', multiplier: 100 }),
  },
  {
    id: 'G14',
    driver: 'gpio',
    what: 'existing custom output (relay1, example config): initial state',
    saves: true,
    edit: (d) => Object.assign(gpioCh(d, 'relay1'), { initial_state: true }),
    written: (s) => assert.equal(gpioCh(s, 'relay1').initial_state, true),
  },
  {
    id: 'G15',
    driver: 'gpio',
    what: 'custom chip typed without /dev/ (gpiochip0)',
    saves: true,
    edit: (d) => addGpio(d, newGpio({ name: 'bare', gpio: { chip: 'gpiochip0', offset: 24 } })),
  },
  {
    id: 'G16',
    driver: 'gpio',
    what: 'meter decimals 2.5 (schema type number)',
    saves: true,
    edit: (d) => addGpio(d, meter({ name: 'half', gpio: chip(0, 25), decimal_points_total: 2.5 })),
  },
  {
    id: 'G17',
    driver: 'gpio',
    what: 'meter multiplier 0',
    saves: false,
    edit: (d) => addGpio(d, meter({ name: 'm0', gpio: chip(0, 26), multiplier: 0 })),
  },
  {
    id: 'G18',
    driver: 'gpio',
    what: 'meter multiplier -5',
    saves: false,
    edit: (d) => addGpio(d, meter({ name: 'm5', gpio: chip(0, 27), multiplier: -5 })),
  },
  { id: 'G19', driver: 'gpio', what: 'device name emptied', saves: true, edit: (d) => void (d.device_name = '') },
  { id: 'G20', driver: 'gpio', what: 'max_unchanged_interval 0', saves: true, edit: (d) => void (d.max_unchanged_interval = 0) },
  {
    id: 'G21',
    driver: 'gpio',
    what: 'custom GPIO name with a slash (a/b)',
    saves: false,
    edit: (d) => addGpio(d, newGpio({ name: 'a/b', gpio: chip(0, 28) })),
  },
  {
    id: 'G22',
    driver: 'gpio',
    what: 'custom GPIO name with + and #',
    saves: false,
    edit: (d) => addGpio(d, newGpio({ name: 'a+b#', gpio: chip(0, 29) })),
  },
  {
    id: 'G23',
    driver: 'gpio',
    what: 'meter named so that its _total collides (custom "D1_IN_total")',
    saves: false,
    edit: (d) => {
      Object.assign(gpioCh(d, 'D1_IN'), { type: 'watt_meter' });
      addGpio(d, newGpio({ name: 'D1_IN_total', gpio: chip(0, 30) }));
    },
  },
  {
    id: 'A1',
    driver: 'adc',
    what: 'add custom ADC channel',
    saves: true,
    edit: (d) => addAdc(d, newAdc({ id: 'level', channel_number: 'voltage6' })),
  },
  {
    id: 'A2',
    driver: 'adc',
    what: 'add custom ADC, optional mqtt_type + max_voltage + match_iio (Properties dialog)',
    saves: true,
    edit: (d) =>
      addAdc(d, newAdc({ id: 'current', channel_number: 'voltage7', mqtt_type: 'current', max_voltage: 3.3, match_iio: '*adc*' })),
  },
  { id: 'A3', driver: 'adc', what: 'add, fill nothing', saves: false, edit: (d) => addAdc(d, newAdc({})) },
  {
    id: 'A4',
    driver: 'adc',
    what: 'add custom named like a board channel (5Vout)',
    saves: false,
    edit: (d) => addAdc(d, newAdc({ id: '5Vout', channel_number: 'voltage8' })),
  },
  {
    id: 'A5',
    driver: 'adc',
    what: 'Vin decimal places 1 -> 3, V3_3 2 -> 3',
    saves: true,
    edit: (d) => {
      assert.deepEqual([adcCh(d, 'Vin').decimal_places, adcCh(d, 'V3_3').decimal_places], [1, 2], 'the editor shows the board values');
      adcCh(d, 'Vin').decimal_places = 3;
      adcCh(d, 'V3_3').decimal_places = 3;
    },
    written: (s) => assert.deepEqual([adcCh(s, 'Vin').decimal_places, adcCh(s, 'V3_3').decimal_places], [3, 3]),
  },
  {
    id: 'A6',
    driver: 'adc',
    what: '5Vout averaging 20 -> 10, EXT1_ADC1 poll 500 -> 300',
    saves: true,
    edit: (d) => {
      adcCh(d, '5Vout').averaging_window = 10;
      adcCh(d, 'EXT1_ADC1').poll_interval = 300;
    },
    written: (s) => assert.deepEqual([adcCh(s, '5Vout').averaging_window, adcCh(s, 'EXT1_ADC1').poll_interval], [10, 300]),
  },
  {
    id: 'A7',
    driver: 'adc',
    what: 'delete the custom ADC channel',
    saves: true,
    edit: (d) => void d.iio_channels!.splice(d.iio_channels!.indexOf(adcCh(d, 'pressure')), 1),
  },
  // The editor keeps the cleared field as "" (the copy keeps empty values): refused by both.
  {
    id: 'A8',
    driver: 'adc',
    what: 'custom ADC: clear voltage_multiplier',
    saves: false,
    edit: (d) => void (adcCh(d, 'pressure').voltage_multiplier = ''),
  },
  { id: 'A9', driver: 'adc', what: 'system ADC channel: Properties dialog offered?', saves: true, edit: () => {} },
  {
    id: 'A10',
    driver: 'adc',
    what: 'custom ADC: channel number as deprecated integer 3',
    saves: true,
    edit: (d) => void (adcCh(d, 'pressure').channel_number = 3),
  },
  { id: 'A11', driver: 'adc', what: 'max_unchanged_interval 3 (< 5)', saves: false, edit: (d) => void (d.max_unchanged_interval = 3) },
  { id: 'A12', driver: 'adc', what: 'system channel scale -1', saves: true, edit: (d) => void (adcCh(d, 'Vin').scale = -1) },
  { id: 'A13', driver: 'adc', what: 'system channel poll_interval 0', saves: false, edit: (d) => void (adcCh(d, 'Vin').poll_interval = 0) },
  {
    id: 'A14',
    driver: 'adc',
    what: 'custom ADC voltage_multiplier 0',
    saves: true,
    edit: (d) => void (adcCh(d, 'pressure').voltage_multiplier = 0),
  },
  {
    id: 'A15',
    driver: 'adc',
    what: 'custom ADC id with a slash',
    saves: false,
    edit: (d) => addAdc(d, newAdc({ id: 'a/b', channel_number: 'voltage9' })),
  },
  {
    id: 'A16',
    driver: 'adc',
    what: 'system channel averaging 1000 x delay 1000 vs poll 700',
    saves: true,
    edit: (d) => Object.assign(adcCh(d, 'V3_3'), { averaging_window: 1000, delay_between_measurements: 1000 }),
  },
];

function boardDirs(t: TestContext): Record<'gpio' | 'adc', string> {
  const root = tempDir(t, 'ctl-wb-actions-');
  return {
    gpio: writeDir(root, 'gpio', { 'system.conf': GPIO_BOARD }),
    adc: writeDir(root, 'adc', { 'system.conf': ADC_BOARD }),
  };
}

/** wb-mqtt-confed runs the copy's `configFile.fromJSON`: `-J --from-editor`. */
const AS_CONFED_RUNS_IT = { betweenChannelsAsWarnings: true };

test('wb-mqtt-confed saves with -J --from-editor, as the editor copies say', () => {
  for (const [driver, { copy }] of Object.entries(DRIVERS)) {
    assert.deepEqual((copy.configFile as Obj).fromJSON, [`ctl-mqtt-${driver}`, '-J', '--from-editor']);
  }
});

/** `-J` of an editor value: the stored document, or the problem lines it refused it with. */
function fromEditor(driver: Driver, value: Doc, boardDir: string): { stored?: Doc; refused?: string } {
  try {
    return {
      stored: JSON.parse(
        storedJsonOf(driver.spec, JSON.stringify(value), boardDir, topicLengthCheck(), undefined, AS_CONFED_RUNS_IT),
      ) as Doc,
    };
  } catch (err) {
    return { refused: (err as Error).message };
  }
}

test('the 39 editor actions: none is accepted by the editor and refused by -J, or the other way round', (t) => {
  const dirs = boardDirs(t);
  assert.equal(ACTIONS.length, 39);
  assert.equal(new Set(ACTIONS.map((a) => a.id)).size, 39);
  const disagreements: string[] = [];
  const unexpected: string[] = [];
  for (const action of ACTIONS) {
    const driver = DRIVERS[action.driver];
    const loaded = JSON.parse(
      editorJsonOf(driver.spec, 'main.conf', JSON.stringify(driver.main), dirs[action.driver], topicLengthCheck()),
    ) as Doc;
    const doc = editorValue(driver, loaded);
    action.edit(doc);
    const value = editorValue(driver, doc);
    const editorSaves = driver.validate(value) === true;
    const j = fromEditor(driver, value, dirs[action.driver]);
    const jSaves = j.stored !== undefined;
    const row = `${action.id} ${action.what}`;
    if (editorSaves !== jSaves) {
      const why = editorSaves ? `-J refused: ${j.refused}` : `the editor refused: ${JSON.stringify(driver.validate.errors?.slice(0, 3))}`;
      disagreements.push(`${row}: ${why}`);
    } else if (editorSaves !== action.saves) {
      unexpected.push(`${row}: ${editorSaves ? 'saved' : 'refused'} (${j.refused ?? JSON.stringify(driver.validate.errors?.slice(0, 2))})`);
    } else if (j.stored && action.written) {
      action.written(j.stored);
    }
  }
  assert.deepEqual(disagreements, [], 'accepted by one, refused by the other');
  assert.deepEqual(unexpected, [], 'outcomes other than the ones expected');
});

test('A5 with numbers: Vin set to 3 decimal places on a board saying 1 runs with 3 (the schema default is no longer dropped)', (t) => {
  const dirs = boardDirs(t);
  const driver = DRIVERS.adc;
  const doc = editorValue(
    driver,
    JSON.parse(editorJsonOf(driver.spec, 'main.conf', JSON.stringify(ADC_MAIN), dirs.adc, topicLengthCheck())) as Doc,
  );
  adcCh(doc, 'Vin').decimal_places = 3;
  const stored = fromEditor(driver, editorValue(driver, doc), dirs.adc).stored!;
  const vin = loadAdc(stored, dirs.adc).model.channels.find((c) => c.id === 'Vin')!;
  assert.equal(vin.decimalPlaces, 3);
  // And back: set to the board's 1, the override goes and the board's value applies.
  const again = editorValue(
    driver,
    JSON.parse(editorJsonOf(driver.spec, 'main.conf', JSON.stringify(stored), dirs.adc, topicLengthCheck())) as Doc,
  );
  assert.equal(adcCh(again, 'Vin').decimal_places, 3, 'the editor shows the saved 3');
  adcCh(again, 'Vin').decimal_places = 1;
  const back = fromEditor(driver, editorValue(driver, again), dirs.adc).stored!;
  assert.equal(
    back.iio_channels!.some((c) => c.id === 'Vin'),
    false,
    'nothing left to override',
  );
  assert.equal(loadAdc(back, dirs.adc).model.channels.find((c) => c.id === 'Vin')!.decimalPlaces, 1);
});

/** What json-editor's validator checks the way JSON Schema does (its validator.js, fork 2.5.3-wb). */
const SAME_AS_JSON_SCHEMA = new Set([
  ...['type', 'enum', 'not', 'anyOf', 'oneOf', 'allOf', 'required', 'properties', 'patternProperties', 'additionalProperties'],
  ...['minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'items', 'minItems', 'maxItems', '$ref', 'definitions'],
]);
/** Keys that do not validate: annotations, the editor's options, the schema's own header. */
const NOT_VALIDATING = new Set([
  ...['title', 'description', 'default', 'options', 'propertyOrder', '_format', 'headerTemplate', 'defaultProperties'],
  ...['$schema', 'configFile', 'translations'],
]);

test('the editor copies use only keywords the editor validates as JSON Schema does (no draft-6 exclusiveMinimum, no const ...)', () => {
  for (const [driver, { copy }] of Object.entries(DRIVERS)) {
    const odd = new Set<string>();
    const visit = (node: unknown, schemaPosition: boolean): void => {
      if (Array.isArray(node)) return node.forEach((n) => visit(n, schemaPosition));
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node as Obj)) {
        if (!schemaPosition) {
          visit(value, true);
          continue;
        }
        if (NOT_VALIDATING.has(key)) continue;
        if (!SAME_AS_JSON_SCHEMA.has(key)) odd.add(key);
        // Under these, the keys are names (of properties, patterns, definitions), not keywords.
        visit(value, !['properties', 'patternProperties', 'definitions'].includes(key));
      }
    };
    visit(copy, true);
    assert.deepEqual([...odd], [], driver);
  }
});
