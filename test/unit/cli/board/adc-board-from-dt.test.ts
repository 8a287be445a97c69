/** The ADC board from a fake device tree: ADC phandle to match_iio, dividers, defaults, optional properties. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { adcBoardGenerator, dividerMultiplier } from '../../../../src/cli/board/adc-board-from-dt.js';
import { MATCH_IIO_MAX_LENGTH } from '../../../../src/adc/config/adc-config-model.js';
import { isCtlError } from '../../../../src/core/errors.js';
import { pickIioDevice } from '../../../../src/hw/iio/iio-match.js';
import { createFakeIioTree } from '../../../../src/sim/iio/fake-tree.js';
import { cells, setOfPhandle, str, writeDtChildren, type DtProperties } from '../../../helpers/fake-device-tree.js';

const NODE = 'wirenboard/analog-inputs';
const SOC_ADC = 0x40;
const EXT_ADC = 0x41;

function treeWith(t: TestContext, inputs: Record<string, DtProperties>): string {
  const root = mkdtempSync(join(tmpdir(), 'ctl-dt-adc-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  writeDtChildren(root, NODE, inputs);
  const iio = createFakeIioTree(root, [
    { parent: 'platform/soc/2100000.bus/2198000.adc' },
    { parent: 'platform/soc/21a0000.i2c/i2c-0/0-0048' },
    { parent: 'platform/other.adc' }, // no device-tree node
  ]);
  setOfPhandle(iio.device(0).dir, SOC_ADC);
  setOfPhandle(iio.device(1).dir, EXT_ADC);
  return root;
}

async function generationError(root: string): Promise<string> {
  try {
    await adcBoardGenerator.generate(root);
  } catch (err) {
    assert.ok(isCtlError(err, 'CONFIG_INVALID'), String(err));
    return err.message;
  }
  assert.fail('generated');
}

test('match_iio is the symlink target of the IIO device the phandle names; dividers, defaults and optional keys', async (t) => {
  const root = treeWith(t, {
    Vin: {
      'iio-device': cells(SOC_ADC),
      'iio-channel-name': str('voltage1'),
      'divider-r1-ohms': cells(200000),
      'divider-r2-ohms': cells(12000),
      'averaging-window': cells(4),
      'decimal-places': cells(2),
    },
    A1: { 'iio-device': cells(EXT_ADC), 'iio-channel-name': str('voltage3'), 'divider-r1-ohms': cells(1), 'divider-r2-ohms': cells(3) },
    V3_3: { 'iio-device': cells(SOC_ADC) },
  });
  const board = await adcBoardGenerator.generate(root);
  assert.ok(board);
  assert.deepEqual(board.value, {
    iio_channels: [
      {
        id: 'A1',
        match_iio: '../../../devices/platform/soc/21a0000.i2c/i2c-0/0-0048/iio:device1',
        channel_number: 'voltage3',
        voltage_multiplier: 1.33333,
      },
      {
        id: 'V3_3',
        match_iio: '../../../devices/platform/soc/2100000.bus/2198000.adc/iio:device0',
        channel_number: 'voltage0',
        voltage_multiplier: 1,
      },
      {
        id: 'Vin',
        match_iio: '../../../devices/platform/soc/2100000.bus/2198000.adc/iio:device0',
        channel_number: 'voltage1',
        voltage_multiplier: 17.66666,
        averaging_window: 4,
        decimal_places: 2,
      },
    ],
  });
  assert.deepEqual(board.warnings, []);
  assert.deepEqual(board.editorEnums, [
    { path: ['definitions', 'reserved_id', 'enum'], names: ['A1', 'V3_3', 'Vin'] },
    { path: ['definitions', 'system_channel', 'properties', 'id', 'enum'], names: ['A1', 'V3_3', 'Vin'] },
  ]);
});

test('the divider ratio is cut, not rounded, to 5 decimals, exactly', () => {
  assert.equal(dividerMultiplier(200000, 12000), 17.66666);
  assert.equal(dividerMultiplier(20000, 10000), 3);
  assert.equal(dividerMultiplier(2, 1), 3);
  assert.equal(dividerMultiplier(0xffffffff, 1), 4294967296);
  assert.equal(dividerMultiplier(1, 0xffffffff), 1);
});

test('sort-order orders the channels (default 0); equal orders keep the name order', async (t) => {
  const root = treeWith(t, {
    A1: { 'iio-device': cells(SOC_ADC), 'sort-order': cells(5) },
    A2: { 'iio-device': cells(SOC_ADC), 'sort-order': cells(5) },
    Vin: { 'iio-device': cells(SOC_ADC), 'sort-order': cells(1) },
    V5_0: { 'iio-device': cells(SOC_ADC) },
  });
  const board = await adcBoardGenerator.generate(root);
  assert.deepEqual(
    (board!.value.iio_channels as { id: string }[]).map((c) => c.id),
    ['V5_0', 'Vin', 'A1', 'A2'],
  );
});

test('an ADC that is not there: the channel matches no device, with a warning', async (t) => {
  const root = treeWith(t, { A4: { 'iio-device': cells(0x99) } });
  const board = await adcBoardGenerator.generate(root);
  assert.equal((board!.value.iio_channels as { match_iio: string }[])[0]!.match_iio, 'disconnected_iio_device_phandle_153');
  assert.deepEqual(board!.warnings, [
    'A4: no IIO device has the device-tree phandle 153 (not probed?); its match_iio is "disconnected_iio_device_phandle_153"',
  ]);
});

test('a link target longer than a match_iio may be: its end, which still matches it as the service matches', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'ctl-dt-adc-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  writeDtChildren(root, NODE, { A1: { 'iio-device': cells(EXT_ADC) } });
  const parent = `platform/${Array.from({ length: 20 }, (_, i) => `usb-hub-port-${i}`).join('/')}`;
  const iio = createFakeIioTree(root, [{ parent: 'platform/soc/other.adc' }, { parent }]);
  setOfPhandle(iio.device(1).dir, EXT_ADC);
  const target = iio.device(1).target;
  assert.ok(target.length > MATCH_IIO_MAX_LENGTH, String(target.length));
  const board = await adcBoardGenerator.generate(root);
  const matchIio = (board!.value.iio_channels as { match_iio: string }[])[0]!.match_iio;
  assert.equal(matchIio, target.slice(-MATCH_IIO_MAX_LENGTH));
  assert.equal(pickIioDevice(matchIio, [iio.device(0), iio.device(1)])?.entry, 'iio:device1');
  assert.deepEqual(board!.warnings, [
    `A1: its IIO device's link target is longer than a match_iio may be: its last ${MATCH_IIO_MAX_LENGTH} characters are used`,
  ]);
});

test('no analog-inputs node: null', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'ctl-dt-adc-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.equal(await adcBoardGenerator.generate(root), null);
});

test('malformed nodes: one line naming the property', async (t) => {
  const at = (root: string, p: string) => join(root, 'sys/firmware/devicetree/base', NODE, p);
  const cases: [DtProperties, string, string][] = [
    [{}, 'iio-device', 'missing: an analog input node needs the phandle of its ADC'],
    [{ 'iio-device': cells(SOC_ADC, 1) }, 'iio-device', 'expected 1 cell(s), got 2'],
    [
      { 'iio-device': cells(SOC_ADC), 'divider-r1-ohms': cells(10) },
      'divider-r2-ohms',
      'missing: a divider needs both divider-r1-ohms and divider-r2-ohms',
    ],
    [{ 'iio-device': cells(SOC_ADC), 'divider-r1-ohms': cells(10), 'divider-r2-ohms': cells(0) }, 'divider-r2-ohms', 'must not be 0'],
    [{ 'iio-device': cells(SOC_ADC), 'averaging-window': cells(0) }, 'averaging-window', 'must be >= 1'],
    [{ 'iio-device': cells(SOC_ADC), 'iio-channel-name': cells(3) }, 'iio-channel-name', 'expected one NUL-terminated string'],
    [{ 'iio-device': cells(SOC_ADC), 'decimal-places': Buffer.from([2]) }, 'decimal-places', 'expected 32-bit cells, got 1 byte(s)'],
  ];
  for (const [properties, property, rule] of cases) {
    const root = treeWith(t, { Vin: properties });
    assert.equal(await generationError(root), `${at(root, `Vin/${property}`)}: ${rule}`, property);
  }
});
