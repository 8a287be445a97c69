/**
 * The configuration page's earlier versions in a real browser (headless chromium) against the
 * console rig: each at its own time (to the second, a counter when two share one), the file as
 * it was before the console's first save marked as the original, only one row "in the file now",
 * and each other version's differences from the file now, line by line.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { launchBrowser, pageShows, skipWithoutChromium, type TestBrowser } from '../../helpers/browser.js';
import { startConsoleRig, type ConsoleRig } from './console-rig.js';

if (skipWithoutChromium) console.log(`# ${skipWithoutChromium}`);

describe('configuration versions, in a browser', { skip: skipWithoutChromium }, () => {
  let rig: ConsoleRig;
  let browser: TestBrowser;
  let page: Page;

  before(async () => {
    rig = await startConsoleRig();
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('dialog', (d) => void d.accept());
  });
  after(async () => {
    await browser?.close();
    await rig?.close();
  });

  const saveName = async (name: string): Promise<void> => {
    await page.goto(`${rig.url}config/ctl-mqtt-gpio`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.locator('[data-path="device_name"] input').fill(name);
    await page.locator('#save').click();
    await pageShows(page, '#result', /^Saved/, 30_000);
  };

  test('versions have distinct times, the original is marked, and each shows its changes against the file now', async () => {
    await saveName('Panel one');
    await saveName('Panel two');
    await page.locator('#versions-button').click();
    const rows = page.locator('#versions li[data-version]');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 3);
    const times = await rows.locator('.when').allInnerTexts();
    assert.equal(new Set(times).size, 3, `distinct: ${times.join(' | ')}`);
    for (const time of times) assert.match(time, /\d{2}:\d{2}:\d{2}/, 'to the second');
    // Newest first: the file now, the first save, the file as installed.
    assert.equal(await rows.locator('.current').count(), 1);
    assert.equal(await rows.nth(0).locator('.current').innerText(), 'in the file now');
    assert.equal(await rows.nth(2).locator('.original').innerText(), 'original file (before the first save)');
    assert.equal(await rows.locator('.original').count(), 1);
    assert.equal(await rows.nth(1).locator('.size').innerText(), 'the file now: +1 −1 lines');
    // The original against the file now: its device name line removed, the new one added.
    await rows.nth(2).locator('summary').click();
    const diff = rows.nth(2).locator('pre.diff');
    await diff.waitFor();
    assert.deepEqual(await diff.locator('.diff-remove').allInnerTexts(), ['−   "device_name": "Discrete I/O",']);
    assert.deepEqual(await diff.locator('.diff-add').allInnerTexts(), ['+   "device_name": "Panel two",']);
    // Unchanged lines far from the change are one line saying how many.
    assert.match(await diff.locator('.diff-skip').last().innerText(), /^⋯ \d+ unchanged lines$/);
  });
});
