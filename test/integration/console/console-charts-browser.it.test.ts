/**
 * The devices page's charts in a real browser (headless chromium) against the console rig: round
 * value ticks (1, 2 or 5 times a power of ten), times in 24 hours, the units above the axis and
 * never over its top label, a steady 3.3 V supply drawn over a sensible span (not its noise blown
 * up), and a meter's consumption per hour untouched by a total set by hand from another MQTT
 * client (`.../A1_IN_total/on`).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { MqttClient } from 'mqtt';
import { connectTestClient } from '../../helpers/mqtt-recorder.js';
import { launchBrowser, pageShows, skipWithoutChromium, type TestBrowser } from '../../helpers/browser.js';
import { eventually, startConsoleRig, type ConsoleRig } from './console-rig.js';

if (skipWithoutChromium) console.log(`# ${skipWithoutChromium}`);

const SUPPLY = '/devices/supply/controls/v33';

describe('charts of the devices page, in a browser', { skip: skipWithoutChromium }, () => {
  let rig: ConsoleRig;
  let browser: TestBrowser;
  let page: Page;
  let client: MqttClient;

  before(async () => {
    rig = await startConsoleRig();
    client = await connectTestClient(rig.broker.url);
    await client.publishAsync('/devices/supply/meta', JSON.stringify({ title: { en: 'Supply' } }), { retain: true, qos: 1 });
    await client.publishAsync(`${SUPPLY}/meta`, JSON.stringify({ type: 'voltage', readonly: true, units: 'V', order: 1 }), {
      retain: true,
      qos: 1,
    });
    // A steady supply with a little noise.
    for (const v of ['3.300', '3.302', '3.298', '3.301', '3.299', '3.300']) await client.publishAsync(SUPPLY, v, { retain: true, qos: 1 });
    browser = await launchBrowser();
    page = await browser.context.newPage();
  });
  after(async () => {
    for (const topic of ['/devices/supply/meta', `${SUPPLY}/meta`, SUPPLY])
      await client?.publishAsync(topic, '', { retain: true, qos: 1 }).catch(() => undefined);
    await client?.endAsync().catch(() => undefined);
    await browser?.close();
    await rig?.close();
  });

  const openChart = async (control: string): Promise<void> => {
    await page.locator(`tr[data-control="${control}"] button.spark`).click();
    await page.locator(`tr[data-chart-for="${control}"] svg.chart polyline`).waitFor({ state: 'attached' });
  };

  test('round ticks over a sensible span, 24-hour times, the units clear of the top tick', async () => {
    await page.goto(rig.url);
    await page.waitForSelector('tr[data-control="v33"]');
    await eventually('values of v33 kept', () =>
      rig.console.feed.historyOf('supply', 'v33', 'all').recent.length >= 6 ? true : undefined,
    );
    await openChart('v33');
    const chart = page.locator('tr[data-chart-for="v33"] svg.chart');
    const ticks = (await chart.locator('.tick-value').allTextContents()).map(Number);
    assert.ok(ticks.length >= 3, `ticks: ${ticks.join(' ')}`);
    const steps = ticks.slice(1).map((v, i) => Number((v - ticks[i]!).toFixed(9)));
    assert.equal(new Set(steps).size, 1, `even steps: ${ticks.join(' ')}`);
    const step = steps[0]!;
    const mantissa = Number((step / 10 ** Math.floor(Math.log10(step))).toFixed(6));
    assert.ok([1, 2, 5].includes(mantissa), `a 1-2-5 step: ${step}`);
    // ±2 mV of noise on 3.3 V is not drawn as the chart's whole height.
    assert.ok(ticks[ticks.length - 1]! - ticks[0]! >= 0.15, `span of ${ticks.join(' ')}`);
    assert.ok(ticks[0]! <= 3.298 && ticks[ticks.length - 1]! >= 3.302);
    for (const time of await chart.locator('.tick-time').allTextContents()) assert.match(time, /^([01]\d|2[0-3]):[0-5]\d$/);
    // The units stand above the axis, clear of its top label.
    const units = (await chart.locator('.units-label').boundingBox())!;
    assert.equal(await chart.locator('.units-label').textContent(), 'V');
    for (const label of await chart.locator('.tick-value').all()) {
      const box = (await label.boundingBox())!;
      const apart =
        units.y + units.height <= box.y || box.y + box.height <= units.y || units.x + units.width <= box.x || box.x + box.width <= units.x;
      assert.ok(apart, `units ${JSON.stringify(units)} over a tick ${JSON.stringify(box)}`);
    }
  });

  test("a total set by hand from another client is not counted as the hour's consumption", async () => {
    await page.goto(rig.url);
    await page.waitForSelector('tr[data-control="A1_IN_total"]');
    const total = (): string | null | undefined =>
      rig.console.feed
        .snapshot()
        .devices.find((d) => d.id === 'ctl-gpio')
        ?.controls.find((c) => c.name === 'A1_IN_total')?.value;
    await eventually('A1_IN_total charted', () =>
      rig.console.feed.historyOf('ctl-gpio', 'A1_IN_total', 'all').recent.length > 0 ? true : undefined,
    );
    await client.publishAsync('/devices/ctl-gpio/controls/A1_IN_total/on', '5000', { qos: 1 });
    await eventually('A1_IN_total = 5000.000', () => (total() === '5000.000' ? true : undefined));
    const hours = rig.console.feed.historyOf('ctl-gpio', 'A1_IN_total', 'all').hours;
    const used = hours.reduce((sum, [, kWh]) => sum + kWh, 0);
    assert.ok(used < 1, `consumption counted: ${used} kWh`);
    await openChart('A1_IN_total');
    await page.locator('tr[data-chart-for="A1_IN_total"] button[data-view="hourly"]').click();
    await pageShows(
      page,
      'tr[data-chart-for="A1_IN_total"] .chart-summary',
      /^Consumption in the last 24 hours: 0 kWh; this hour so far: 0 kWh\.$/,
      15_000,
    );
  });
});
