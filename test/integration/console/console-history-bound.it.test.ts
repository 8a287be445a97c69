/**
 * The device feed's charts against a real broker and a client that makes up controls: at most
 * the history's number of controls are charted, the rest are shown without a chart and the log
 * says so once, and a new control gets a place once a charted one has been silent for an hour.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MqttClient } from 'mqtt';
import { ControlHistory } from '../../../src/console/devices/control-history.js';
import { DeviceFeed } from '../../../src/console/devices/device-feed.js';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { connectTestClient } from '../../helpers/mqtt-recorder.js';
import { startTestBroker, type TestBroker } from '../../helpers/test-broker.js';
import { eventually } from '../../helpers/wait-until.js';

let broker: TestBroker;
let client: MqttClient;
before(async () => {
  broker = await startTestBroker();
  client = await connectTestClient(broker.url);
});
after(async () => {
  await client?.endAsync();
  await broker?.close();
});

test('made-up controls: 5 charted of 40, one warning, a place again after an hour of silence', async () => {
  const time = new ManualTime();
  const log = createMemoryLogger('console', false);
  const feed = new DeviceFeed({
    broker: { url: broker.url },
    topicPrefix: '',
    log,
    history: new ControlHistory(() => time.wallNow(), 5),
    time,
  });
  feed.start();
  try {
    await eventually('connected', () => (feed.snapshot().connected ? true : undefined));
    const shown = (): number => feed.snapshot().devices.reduce((n, d) => n + d.controls.length, 0);
    for (let i = 0; i < 40; i++) await client.publishAsync(`/devices/fake${i % 4}/controls/c${i}`, String(i), { qos: 1 });
    await eventually('all 40 shown', () => (shown() === 40 ? true : undefined));
    assert.equal(feed.history.size, 5);
    assert.deepEqual(
      log.lines.filter((l) => l.includes('charts:')).map((l) => l.replace(/^.*?charts:/, 'charts:')),
      [
        'charts: 5 controls are charted, the most kept; fake1/c5 got no chart (a new control gets one when a charted one has had no value for an hour)',
      ],
    );
    assert.deepEqual(feed.historyOf('fake1', 'c5', 'all').recent, [], 'shown without a chart');
    assert.equal(feed.historyOf('fake0', 'c0', 'all').recent.length, 1);
    // An hour later the controls charted first have been silent that long: a new one takes a place.
    time.jump(3_600_000);
    await client.publishAsync('/devices/fake0/controls/late', '7', { qos: 1 });
    await eventually('the late control shown', () => (shown() === 41 ? true : undefined));
    assert.equal(feed.historyOf('fake0', 'late', 'all').recent.length, 1, 'and charted');
    assert.equal(feed.history.size, 5);
  } finally {
    await feed.close();
  }
});
