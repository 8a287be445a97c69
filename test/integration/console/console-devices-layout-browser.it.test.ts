/**
 * The devices page's layout in a real browser (headless chromium) against the console rig, at a
 * desktop's 1366 px and a phone's 390 px: names never broken inside a word (also beside a field's
 * error), no column kept for errors that are not there, a one-line header on the phone, titles
 * from the metas with the ids beside them, the controls in groups, a filter from 30 controls on,
 * and the values of a stopped driver marked stale. A test client publishes a panel of 32
 * controls and a device whose driver is gone (`meta/error` = `r`).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { MqttClient } from 'mqtt';
import { connectTestClient } from '../../helpers/mqtt-recorder.js';
import { launchBrowser, skipWithoutChromium, type TestBrowser, pageShows } from '../../helpers/browser.js';
import type { PageNode, PageWindow } from '../../helpers/page-dom.js';
import { startConsoleRig, type ConsoleRig } from './console-rig.js';

if (skipWithoutChromium) console.log(`# ${skipWithoutChromium}`);

const PANEL_CONTROLS = 32;

/** Retained topics the test publishes: [topic, payload]. */
function fakeDevices(): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ['/devices/panel/meta', JSON.stringify({ title: { en: 'Boiler room panel', ru: 'Щит котельной' } })],
  ];
  out.push([
    '/devices/panel/controls/boiler_t/meta',
    JSON.stringify({ type: 'temperature', readonly: true, order: 0, title: { en: 'Boiler temperature', ru: 'Температура котла' } }),
  ]);
  out.push(['/devices/panel/controls/boiler_t', '61.5']);
  for (let i = 1; i < PANEL_CONTROLS; i++) {
    out.push([`/devices/panel/controls/probe${i}/meta`, JSON.stringify({ type: 'voltage', readonly: true, order: i, units: 'V' })]);
    out.push([`/devices/panel/controls/probe${i}`, (i / 10).toFixed(2)]);
  }
  out.push(['/devices/gone/meta', JSON.stringify({ title: { en: 'Stopped driver' } })]);
  out.push(['/devices/gone/meta/error', 'r']);
  out.push(['/devices/gone/controls/level/meta', JSON.stringify({ type: 'voltage', readonly: true, order: 1, units: 'V' })]);
  out.push(['/devices/gone/controls/level', '3.3']);
  return out;
}

describe('devices page layout, in a browser', { skip: skipWithoutChromium }, () => {
  let rig: ConsoleRig;
  let browser: TestBrowser;
  let page: Page;
  let client: MqttClient;

  before(async () => {
    rig = await startConsoleRig();
    client = await connectTestClient(rig.broker.url);
    for (const [topic, payload] of fakeDevices()) await client.publishAsync(topic, payload, { retain: true, qos: 1 });
    browser = await launchBrowser();
    page = await browser.context.newPage();
  });
  after(async () => {
    for (const [topic] of fakeDevices()) await client?.publishAsync(topic, '', { retain: true, qos: 1 }).catch(() => undefined);
    await client?.endAsync().catch(() => undefined);
    await browser?.close();
    await rig?.close();
  });

  const open = async (width: number): Promise<void> => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(rig.url);
    await page.waitForSelector('section[data-device="ctl-gpio"] tr[data-control="A1_IN_total"]');
    await page.waitForSelector(`section[data-device="panel"] tr[data-control="probe${PANEL_CONTROLS - 1}"]`);
  };

  /** The words of control names and titles that the page broke over two lines. */
  const brokenWords = (): Promise<string[]> =>
    page.evaluate(() => {
      const { document, NodeFilter } = globalThis as unknown as PageWindow;
      const broken: string[] = [];
      for (const cell of document.querySelectorAll('tr[data-control] th, section.device h2')) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          for (const m of text.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) broken.push(m[0]);
          }
        }
      }
      return broken;
    });

  test('at 1366 px no name is broken inside a word, also while a field shows its error', async () => {
    await open(1366);
    assert.deepEqual(await brokenWords(), []);
    await page.locator('tr[data-control="A1_IN_total"] form.set-number input').fill('12abc');
    await pageShows(page, 'tr[data-control="A1_IN_total"] .field-error', 'expected a number such as 1234.5', 15_000);
    assert.deepEqual(await brokenWords(), []);
    // No column of its own for error flags: a flag is shown with its control's name.
    const heads = await page.locator('section[data-device="ctl-gpio"] thead th').allInnerTexts();
    assert.deepEqual(heads, ['Control', 'Value', 'Units', 'Last hour']);
  });

  test('at 390 px each control is a card, nothing is wider than the screen and the header is one line', async () => {
    await open(390);
    assert.deepEqual(await brokenWords(), []);
    const layout = await page.evaluate(() => {
      const { document, getComputedStyle } = globalThis as unknown as PageWindow;
      const row = document.querySelector('tr[data-control="A1_IN_total"]')!;
      const name = row.querySelector('th')!;
      return {
        display: getComputedStyle(row).display,
        nameWidth: name.getBoundingClientRect().width,
        rowWidth: row.getBoundingClientRect().width,
        pageWidth: document.documentElement.scrollWidth,
        header: document.querySelector('header.top')!.getBoundingClientRect().height,
      };
    });
    assert.equal(layout.display, 'grid');
    assert.ok(layout.nameWidth >= layout.rowWidth - 2, `the name spans the card: ${JSON.stringify(layout)}`);
    assert.ok(layout.pageWidth <= 390, `nothing wider than the phone: ${JSON.stringify(layout)}`);
    assert.ok(layout.header <= 48, `a one-line header: ${JSON.stringify(layout)}`);
    await page.locator('tr[data-control="A1_IN_total"] form.set-number input').fill('12abc');
    await pageShows(page, 'tr[data-control="A1_IN_total"] .field-error', 'expected a number such as 1234.5', 15_000);
    assert.deepEqual(await brokenWords(), []);
    assert.ok((await page.evaluate(() => (globalThis as unknown as PageWindow).document.documentElement.scrollWidth)) <= 390);
  });

  test('titles from the metas, with the id beside them', async () => {
    await open(1366);
    const panel = page.locator('section[data-device="panel"]');
    assert.equal(await panel.locator('h2 .title').innerText(), 'Boiler room panel');
    assert.equal(await panel.locator('h2 .device-id').innerText(), 'panel');
    assert.equal(await panel.locator('tr[data-control="boiler_t"] th .label').innerText(), 'Boiler temperature');
    assert.equal(await panel.locator('tr[data-control="boiler_t"] th .control-id').innerText(), 'boiler_t');
    // Without a title, the id alone.
    assert.equal(await panel.locator('tr[data-control="probe1"] th .label').innerText(), 'probe1');
    assert.equal(await panel.locator('tr[data-control="probe1"] th .control-id').innerText(), '');
  });

  test('the controls are grouped: inputs, outputs, meters, analog', async () => {
    await open(1366);
    const gpio = page.locator('section[data-device="ctl-gpio"]');
    const order = await gpio
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-group') ?? r.getAttribute('data-control')));
    const at = (name: string): number => order.indexOf(name);
    assert.ok(at('inputs') < at('door') && at('door') < at('outputs'), order.join(' '));
    assert.ok(at('outputs') < at('relay1') && at('relay1') < at('meters'), order.join(' '));
    assert.ok(at('meters') < at('A1_IN_total'), order.join(' '));
    assert.equal(await gpio.locator('tr.group-head[data-group="meters"] th').innerText(), 'METERS');
    // One group only (the ADC's analog inputs): no heading.
    assert.equal(await page.locator('section[data-device="ctl-adc"] tr.group-head').count(), 0);
  });

  test('from 30 controls on, a filter box finds a control by its name or title', async () => {
    await open(1366);
    const filter = page.locator('#filter-input');
    assert.equal(await filter.isVisible(), true);
    await filter.fill('boiler temp');
    const visible = async (): Promise<string[]> =>
      page
        .locator('tr[data-control]')
        .evaluateAll((rows) =>
          rows.filter((r) => (r as unknown as PageNode).offsetParent !== null).map((r) => r.getAttribute('data-control')!),
        );
    assert.deepEqual(await visible(), ['boiler_t']);
    await filter.fill('relay');
    assert.deepEqual(await visible(), ['relay1']);
    assert.equal(await page.locator('section[data-device="panel"]').isVisible(), false);
    await filter.fill('zzz-nothing');
    assert.equal(await page.locator('#no-match').isVisible(), true);
    await filter.fill('');
    assert.ok((await visible()).length > PANEL_CONTROLS);
  });

  test("a stopped driver's values are shown as stale: dimmed and said in words", async () => {
    await open(1366);
    const row = page.locator('section[data-device="gone"] tr[data-control="level"]');
    await row.waitFor();
    assert.match((await row.getAttribute('class')) ?? '', /\bstale\b/);
    assert.equal(await row.locator('th .flags').innerText(), 'stale');
    const opacity = await row
      .locator('td.value')
      .evaluate((e) => Number((globalThis as unknown as PageWindow).getComputedStyle(e as unknown as PageNode).opacity));
    assert.ok(opacity < 0.6, `dimmed: ${opacity}`);
    // A running driver's values are not.
    assert.doesNotMatch((await page.locator('tr[data-control="Vin"]').getAttribute('class')) ?? '', /\bstale\b/);
  });
});
