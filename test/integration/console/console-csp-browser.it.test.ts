/**
 * The console's Content-Security-Policy allows styles only from its own files (no
 * 'unsafe-inline'), so no page may write a style attribute or a <style> element. This opens every
 * page in a real browser (login, devices with a chart open, both configuration pages with the
 * versions list) and asserts the browser reported no policy violation and no error on the way.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { hashPassword } from '../../../src/console/auth/password.js';
import { launchBrowser, skipWithoutChromium, type TestBrowser } from '../../helpers/browser.js';
import { eventually, startConsoleRig, type ConsoleRig } from './console-rig.js';

if (skipWithoutChromium) console.log(`# ${skipWithoutChromium}`);

/** Runs before each page's own scripts: every violation the browser reports becomes a console error. */
const REPORT_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (e) =>
  console.error('CSP violation: ' + e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + e.sourceFile + ':' + e.lineNumber));`;

describe('the console under its CSP, in a browser', { skip: skipWithoutChromium }, () => {
  let rig: ConsoleRig;
  let browser: TestBrowser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    rig = await startConsoleRig();
    browser = await launchBrowser();
    await browser.context.addInitScript(REPORT_VIOLATIONS);
    page = await browser.context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`${page.url()}: ${err.message}`));
  });
  after(async () => {
    await browser?.close();
    await rig?.close();
  });

  test("the policy allows no inline style, and the browser's reports reach this test", async () => {
    const response = await page.goto(rig.url);
    const csp = response?.headers()['content-security-policy'] ?? '';
    assert.match(csp, /style-src 'self';/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    type Body = { setAttribute(name: string, value: string): void };
    await page.evaluate(() => (globalThis as unknown as { document: { body: Body } }).document.body.setAttribute('style', 'color: red'));
    await eventually('the inline style reported', () => (problems.some((p) => p.includes('CSP violation: style-src')) ? true : undefined));
    problems.length = 0;
  });

  test('login, devices with a chart, both configuration pages and their versions: no violation, no error', async () => {
    const secured = await rig.startConsole(await hashPassword('correct horse'));
    await browser.context.clearCookies();
    await page.goto(secured.url);
    await page.waitForSelector('#login');
    await page.fill('#password', 'wrong horse');
    await page.click('button[type=submit]');
    await page.locator('#error').filter({ hasText: /\S/ }).waitFor();
    // The refused password is a 401 the browser logs as an error: expected, the only one.
    const refused = problems.findIndex((p) => p.includes('/login') && p.includes('status of 401'));
    assert.notEqual(refused, -1, problems.join('\n'));
    problems.splice(refused, 1);
    await page.fill('#password', 'correct horse');
    await page.click('button[type=submit]');
    await page.waitForSelector('section[data-device="ctl-gpio"]');

    await page.goto(rig.url);
    await page.waitForSelector('tr[data-control="A1_IN_total"]');
    await page.locator('tr[data-control="A1_IN_total"] button.spark').click();
    await page.locator('tr[data-chart-for="A1_IN_total"] svg.chart').waitFor({ state: 'attached' });

    for (const service of ['ctl-mqtt-gpio', 'ctl-mqtt-adc']) {
      await page.goto(`${rig.url}config/${service}`);
      await page.waitForSelector('body[data-ready="1"]');
      await page.locator('#versions-button').click();
      await page.locator('#versions').waitFor();
    }
    // Reports arrive as events after the fact: give the last page a moment to send them.
    await page.goto(rig.url);
    await page.waitForSelector('section[data-device="ctl-gpio"]');
    assert.deepEqual(problems, []);
  });
});
