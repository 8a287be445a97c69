/**
 * The devices page while values change, in a real browser (headless chromium) against the console
 * rig: typing into a field key by key while live updates redraw the page, using the page with the
 * keyboard only, a control's chart, and a device that stops. A ticking device published by the
 * test makes sure pictures keep coming while the person types and tabs. With
 * CTL_CONSOLE_SCREENSHOTS=DIR the devices page is saved as PNG in DIR (desktop and 390 px).
 */
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { MqttClient } from 'mqtt';
import { SERVICE_FILES } from '../../../src/demo/demo-paths.js';
import { demoServiceArgs } from '../../../src/demo/demo-services.js';
import { ServiceProcess } from '../../../src/demo/service-process.js';
import { hashPassword } from '../../../src/console/auth/password.js';
import { connectTestClient, MqttRecorder } from '../../helpers/mqtt-recorder.js';
import { launchBrowser, skipWithoutChromium, type TestBrowser } from '../../helpers/browser.js';
import { eventually, startConsoleRig, type ConsoleRig } from './console-rig.js';

if (skipWithoutChromium) console.log(`# ${skipWithoutChromium}`);

const SCREENSHOTS = process.env['CTL_CONSOLE_SCREENSHOTS'];
const TICKER = '/devices/ticker/controls/n';
const TOTAL_ON = '/devices/ctl-gpio/controls/A1_IN_total/on';

describe('devices page with live updates, in a browser', { skip: skipWithoutChromium }, () => {
  let rig: ConsoleRig;
  let browser: TestBrowser;
  let page: Page;
  let client: MqttClient;
  let recorder: MqttRecorder;
  let ticks = 0;
  let ticker: NodeJS.Timeout | undefined;

  before(async () => {
    rig = await startConsoleRig();
    browser = await launchBrowser();
    page = await browser.context.newPage();
    client = await connectTestClient(rig.broker.url);
    recorder = await MqttRecorder.start(rig.broker.url, [TOTAL_ON, '/devices/ctl-gpio/controls/relay1/on']);
    await client.publishAsync('/devices/ticker/meta', JSON.stringify({ title: { en: 'Ticker' } }), { retain: true, qos: 1 });
    await client.publishAsync(`${TICKER}/meta`, JSON.stringify({ type: 'value', readonly: true, order: 1 }), { retain: true, qos: 1 });
    ticker = setInterval(() => void client.publishAsync(TICKER, String(++ticks), { retain: true, qos: 0 }), 100);
  });
  after(async () => {
    clearInterval(ticker);
    for (const topic of ['/devices/ticker/meta', `${TICKER}/meta`, TICKER])
      await client?.publishAsync(topic, '', { retain: true, qos: 1 }).catch(() => undefined);
    await client?.endAsync().catch(() => undefined);
    await recorder?.close();
    await browser?.close();
    await rig?.close();
  });

  /** The ticker's value on the page: a change proves a picture was drawn. */
  const tickerShown = async (): Promise<number> =>
    Number(await page.locator('section[data-device="ticker"] tr[data-control="n"] td.value').innerText());
  /** Waits until the page has drawn a newer ticker value than `than`. */
  const newerPicture = (than: number): Promise<number> =>
    eventually('a newer picture', async () => {
      const n = await tickerShown();
      return n > than ? n : undefined;
    });
  /** What has the keyboard focus: `device/control/tag.class`, or the tag. */
  const focused = (): Promise<string> =>
    page.evaluate(() => {
      type Node = {
        tagName: string;
        className: string;
        textContent: string | null;
        closest(s: string): { getAttribute(n: string): string | null } | null;
      };
      const doc = (globalThis as unknown as { document: { activeElement: Node | null; body: Node } }).document;
      const e = doc.activeElement;
      if (e === null || e === doc.body) return 'body';
      const row = e.closest('tr[data-control]');
      const section = e.closest('section[data-device]');
      const link = e.tagName === 'A' ? (e.textContent ?? '') : '';
      return `${section?.getAttribute('data-device') ?? ''}/${row?.getAttribute('data-control') ?? ''}/${e.tagName.toLowerCase()}.${e.className}${link}`;
    });

  test('a meter total typed key by key while the page updates is sent as typed', async () => {
    await page.goto(rig.url);
    await page.waitForSelector('section[data-device="ticker"] tr[data-control="n"]');
    const input = page.locator('tr[data-control="A1_IN_total"] form.set-number input');
    await input.focus();
    await input.press('Control+A');
    const before = await newerPicture(0);
    await page.keyboard.type('123456789', { delay: 120 });
    // Pictures were drawn while typing, and the field kept the focus and every key.
    const afterTyping = await newerPicture(before);
    assert.ok(afterTyping > before + 3, `pictures drawn while typing: ticker ${before} → ${afterTyping}`);
    assert.equal(await input.inputValue(), '123456789');
    assert.equal(await focused(), 'ctl-gpio/A1_IN_total/input.');
    const mark = recorder.mark();
    await page.keyboard.press('Enter');
    const sent = await recorder.waitForTopic(TOTAL_ON, undefined, { from: mark });
    assert.equal(sent.payload, '123456789');
    await eventually('A1_IN_total = 123456789.000', () => {
      const c = rig.console.feed
        .snapshot()
        .devices.find((d) => d.id === 'ctl-gpio')
        ?.controls.find((x) => x.name === 'A1_IN_total');
      return c?.value === '123456789.000' ? true : undefined;
    });
    assert.equal(await focused(), 'ctl-gpio/A1_IN_total/input.', 'the focus stays in the field after Enter');
  });

  test('keyboard only: Tab goes through the controls in order while values change, Space toggles a switch, Enter sets a number', async () => {
    await page.goto(rig.url);
    await page.waitForSelector('section[data-device="ctl-gpio"] tr[data-control="relay1"]');
    const visited: string[] = [];
    // Tab until relay1's toggle; every Tab lands on a new element, never back on the body.
    for (let i = 0; i < 80 && !visited.includes('ctl-gpio/relay1/input.toggle'); i++) {
      const shownBefore = await tickerShown();
      await page.keyboard.press('Tab');
      visited.push(await focused());
      if (i % 5 === 0) await newerPicture(shownBefore);
    }
    assert.ok(visited.includes('ctl-gpio/relay1/input.toggle'), `Tab reached relay1: ${visited.join(', ')}`);
    assert.ok(!visited.includes('body'), `the focus never fell back to the page: ${visited.join(', ')}`);
    assert.equal(new Set(visited).size, visited.length, `no element twice: ${visited.join(', ')}`);
    const level = rig.outputLevel('relay1');
    await page.keyboard.press('Space');
    const wanted = level === '1' ? '0' : '1';
    await eventually(`relay1 line ${wanted}`, () => (rig.outputLevel('relay1') === wanted ? true : undefined));
    assert.equal(await focused(), 'ctl-gpio/relay1/input.toggle');
    await newerPicture(await tickerShown());
    await page.keyboard.press('Space');
    await eventually(`relay1 line ${level}`, () => (rig.outputLevel('relay1') === level ? true : undefined));
    // On to the meter total's field: tabbing selects its text, typing replaces it, Enter sends.
    for (let i = 0; i < 40 && (await focused()) !== 'ctl-gpio/A1_IN_total/input.'; i++)
      await page.keyboard.press(i === 0 ? 'Shift+Tab' : 'Tab');
    assert.equal(await focused(), 'ctl-gpio/A1_IN_total/input.');
    const mark = recorder.mark();
    await page.keyboard.type('42', { delay: 80 });
    await page.keyboard.press('Enter');
    assert.equal((await recorder.waitForTopic(TOTAL_ON, undefined, { from: mark })).payload, '42');
  });

  test('a numeric control has a chart of its values, opened from the keyboard', async () => {
    await page.goto(rig.url);
    const spark = page.locator('section[data-device="ctl-adc"] tr[data-control="Vin"] button.spark');
    await spark.waitFor();
    // The small chart beside the value: the last hour's values, each held until the next.
    await eventually(
      'the small chart of Vin has a line',
      async () => ((await spark.locator('svg polyline').count()) > 0 ? true : undefined),
      30_000,
    );
    await spark.focus();
    await page.keyboard.press('Enter');
    assert.equal(await spark.getAttribute('aria-expanded'), 'true');
    const chart = page.locator('tr[data-chart-for="Vin"] svg.chart');
    await eventually('the chart of Vin has a line', async () => ((await chart.locator('polyline, circle').count()) > 0 ? true : undefined));
    assert.match(
      await page.locator('tr[data-chart-for="Vin"] .chart-summary').innerText(),
      /^Last hour: min [\d.]+ V, mean [\d.]+ V, max [\d.]+ V \(\d+ values\)\.$/,
    );
    assert.equal(await chart.getAttribute('aria-label'), 'Vin, last hour');
    // A meter has its consumption views too; a switch has no chart.
    await page.locator('tr[data-control="A1_IN_total"] button.spark').click();
    const perHour = page.locator('tr[data-chart-for="A1_IN_total"] button[data-view="hourly"]');
    await eventually('the meter has a per-hour view', async () => ((await perHour.isVisible()) ? true : undefined));
    await perHour.click();
    await eventually('bars per hour', async () =>
      (await page.locator('tr[data-chart-for="A1_IN_total"] svg.chart rect.bar').count()) === 24 ? true : undefined,
    );
    assert.equal(await page.locator('tr[data-control="relay1"] button.spark').count(), 0);
    if (SCREENSHOTS) {
      // The pictures in docs/: a desktop and a phone (390 px wide), with two charts open.
      await page.locator('tr[data-chart-for="A1_IN_total"] button[data-view="hour"]').click();
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.screenshot({ path: join(SCREENSHOTS, 'console-devices.png'), fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await page.locator('tr[data-control="Vin"] button.spark').click();
      await page.locator('tr[data-chart-for="Vin"] svg.chart polyline').waitFor({ state: 'attached' });
      await page.screenshot({ path: join(SCREENSHOTS, 'console-devices-390.png'), fullPage: true });
      await page.setViewportSize({ width: 1200, height: 860 });
    }
  });

  test('the history route answers for a known control and needs a login like every other API', async () => {
    const status = await page.evaluate(async () => {
      const good = await fetch('/api/history/ctl-adc/Vin');
      const body = (await good.json()) as { units: string; recent: unknown[] };
      const unknown = await fetch('/api/history/ctl-adc/nothing');
      return [good.status, body.units, body.recent.length > 0, unknown.status];
    });
    assert.deepEqual(status, [200, 'V', true, 404]);
    const secured = await rig.startConsole(await hashPassword('correct horse'));
    const res = await fetch(`${secured.url}api/history/ctl-adc/Vin`);
    assert.equal(res.status, 401);
  });

  test('a device whose service stops disappears from the page and from the console', async () => {
    const extra = new ServiceProcess({
      name: 'extra ctl-mqtt-adc',
      entry: SERVICE_FILES.adc.entry,
      args: [...demoServiceArgs('adc', rig.board, rig.broker.url, rig.dir), '--device-id', 'ctl-adc-extra'],
      onLine: () => undefined,
      onExit: () => undefined,
    });
    try {
      await page.goto(rig.url);
      await page.waitForSelector('section[data-device="ctl-adc-extra"] tr[data-control="Vin"]');
      await eventually('history of the extra Vin', () =>
        rig.console.feed.historyOf('ctl-adc-extra', 'Vin', 'all').recent.length > 0 ? true : undefined,
      );
      await extra.stop();
      await page.locator('section[data-device="ctl-adc-extra"]').waitFor({ state: 'detached' });
      assert.equal(
        rig.console.feed.snapshot().devices.some((d) => d.id === 'ctl-adc-extra'),
        false,
      );
      assert.throws(() => rig.console.feed.historyOf('ctl-adc-extra', 'Vin', 'all'), /no control Vin on device ctl-adc-extra/);
      // The other devices are still there.
      assert.equal(await page.locator('section[data-device="ctl-adc"]').count(), 1);
    } finally {
      await extra.stop();
    }
  });
});
