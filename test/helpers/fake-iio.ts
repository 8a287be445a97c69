/**
 * Fake IIO sysfs trees for tests (the core lives in src/sim/iio/fake-tree.ts, which the demo uses
 * too). `tempFakeIio(t, devices)` builds one in a temporary directory removed after the test;
 * give its `root` to the ADC service as `--sysfs-root`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { createFakeIioTree, type FakeIioDeviceSpec, type FakeIioTree } from '../../src/sim/iio/fake-tree.js';

export {
  createFakeIioTree,
  FakeIioTree,
  type FakeIioChannel,
  type FakeIioDevice,
  type FakeIioDeviceSpec,
} from '../../src/sim/iio/fake-tree.js';

/** The parent of the SoC ADC in Wiren Board system configs (match_iio `2198000.adc`). */
export const WB_ADC_PARENT = 'platform/soc/2100000.bus/2198000.adc';

export function tempFakeIio(t: TestContext, devices: readonly FakeIioDeviceSpec[] = []): FakeIioTree {
  const root = mkdtempSync(join(tmpdir(), 'ctl-mqtt-iio-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return createFakeIioTree(root, devices);
}
