/** The health document's interval (service/health.ts), on synthetic time. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import { HealthReport } from '../../../src/service/health.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { RecordingDevice } from '../../helpers/recording-device.js';

test("the document is published every interval until stopped, and the hash is the config file's", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-mqtt-health-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const configFile = join(dir, 'config.conf');
  writeFileSync(configFile, '{}');
  const time = new ManualTime();
  const device = new RecordingDevice({ time });
  let published = 0;
  const publish = device.publishHealth.bind(device);
  device.publishHealth = () => {
    published++;
    publish();
  };
  const driver = { kind: 'adc', channels: () => ({ total: 2, inError: 0 }), counters: () => ({ samples: 7 }) };
  const health = new HealthReport({ device, driver, configFile, intervalS: 60, log: createMemoryLogger(), time });
  device.start();
  health.start();
  await time.advance(59_999);
  assert.equal(published, 0);
  await time.advance(1);
  assert.equal(published, 1);
  await time.advance(4 * 60_000);
  assert.equal(published, 5, 'after 5 intervals: 5 documents');
  const doc = JSON.parse(device.health!) as Record<string, unknown>;
  assert.equal(doc['config_sha256'], '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  assert.deepEqual(doc['adc'], { samples: 7 });
  health.stop();
  assert.equal(time.pending, 0, 'stopped: no timer');
});
