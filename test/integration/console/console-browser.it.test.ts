/**
 * The web console in a real browser (headless chromium) against the console rig: a real broker,
 * both services on the simulated board. What a person does: watch the devices, switch a relay,
 * set a meter total, log in; and what an attacker tries: a POST without the CSRF token, a
 * cross-site request, markup in MQTT names and values. The configuration page has its own file
 * (console-config-browser.it.test.ts). With CTL_CONSOLE_SCREENSHOTS=DIR the pages are also saved
 * as PNG in DIR (the pictures in docs/ are made that way).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { hashPassword } from '../../../src/console/auth/password.js';
import { connectTestClient } from '../../helpers/mqtt-recorder.js';
import { launchBrowser, skipWithoutChromium, type TestBrowser, pageShows } from '../../helpers/browser.js';
import { eventually, startConsoleRig, type ConsoleRig } from './console-rig.js';

const SCREENSHOTS = process.env['CTL_CONSOLE_SCREENSHOTS'];

if (skipWithoutChromium) console.log(`# ${skipWithoutChromium}`);

describe('web console in a browser', { skip: skipWithoutChromium }, () => {
  let rig: ConsoleRig;
  let browser: TestBrowser;
  let page: Page;
  const dialogs: string[] = [];

  before(async () => {
    rig = await startConsoleRig();
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });
  after(async () => {
    await browser?.close();
    await rig?.close();
  });

  const until = (p: Page, selector: string, expected: string | RegExp, timeoutMs = 15_000): Promise<string> =>
    pageShows(p, selector, expected, timeoutMs);

  test('the devices page shows both devices live, with units and values', async () => {
    await page.goto(rig.url);
    await page.waitForSelector('section[data-device="ctl-gpio"] tr[data-control="relay1"]');
    await page.waitForSelector('section[data-device="ctl-adc"] tr[data-control="Vin"]');
    assert.equal(await page.locator('section[data-device="ctl-gpio"] h2 .title').innerText(), 'Discrete I/O');
    assert.equal(await page.locator('section[data-device="ctl-adc"] h2 .title').innerText(), 'ADCs');
    await until(page, 'section[data-device="ctl-adc"] tr[data-control="Vin"] td.value', /^\d+\.\d+$/);
    assert.equal(await page.locator('section[data-device="ctl-adc"] tr[data-control="Vin"] td.units').innerText(), 'V');
    assert.equal(await page.locator('#status').innerText(), 'live');
    // Writable: relay1 a toggle, the meter total an input; inputs are plain text.
    assert.equal(await page.locator('tr[data-control="relay1"] input.toggle').count(), 1);
    assert.equal(await page.locator('tr[data-control="A1_IN_total"] form.set-number input').count(), 1);
    assert.equal(await page.locator('tr[data-control="door"] input').count(), 0);
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, 'console-devices.png'), fullPage: true });
  });

  test('toggling relay1 drives its sim line, and the page follows the published value', async () => {
    assert.equal(rig.outputLevel('relay1'), '0');
    await page.locator('tr[data-control="relay1"] input.toggle').click();
    await eventually('relay1 line high', () => (rig.outputLevel('relay1') === '1' ? true : undefined));
    await until(page, 'tr[data-control="relay1"] .switch-text', 'on');
    await page.locator('tr[data-control="relay1"] input.toggle').click();
    await eventually('relay1 line low', () => (rig.outputLevel('relay1') === '0' ? true : undefined));
  });

  test('setting a meter total publishes the new _total; a bad number is refused in the page', async () => {
    const input = page.locator('tr[data-control="A1_IN_total"] input');
    // The row is redrawn live as the meter counts: each check waits for the page's verdict.
    const fieldError = 'tr[data-control="A1_IN_total"] .field-error';
    await input.fill('12abc');
    await until(page, fieldError, 'expected a number such as 1234.5');
    await page.locator('tr[data-control="A1_IN_total"] form.set-number button').click();
    await input.fill('-5');
    await until(page, fieldError, 'a meter reading cannot be negative');
    await input.fill('1234.5');
    await until(page, fieldError, '');
    await page.locator('tr[data-control="A1_IN_total"] form.set-number button').click();
    const value = await eventually('A1_IN_total = 1234.500', () => {
      const c = rig.console.feed
        .snapshot()
        .devices.find((d) => d.id === 'ctl-gpio')
        ?.controls.find((x) => x.name === 'A1_IN_total');
      return c?.value === '1234.500' ? c.value : undefined;
    });
    assert.equal(value, '1234.500');
    await until(page, 'tr[data-control="A1_IN_total"] input', '1234.500');
  });

  test('MQTT names and values are shown as text, never as markup', async () => {
    const client = await connectTestClient(rig.broker.url);
    const evil = '<img src=x onerror=alert(1)>';
    // A topic level cannot hold '/', so the names carry markup without closing tags.
    const base = '/devices/evil<b>dev';
    const control = `${base}/controls/<i onmouseover=alert(3)>c`;
    const topics = [`${base}/meta`, `${control}/meta`, control];
    try {
      await client.publishAsync(topics[0]!, JSON.stringify({ title: { en: evil } }), { retain: true, qos: 1 });
      await client.publishAsync(topics[1]!, JSON.stringify({ type: 'text', readonly: true, units: '<u>u</u>' }), { retain: true, qos: 1 });
      await client.publishAsync(topics[2]!, '<script>alert(2)</script>', { retain: true, qos: 1 });
      await page.goto(rig.url);
      const section = page.locator('section[data-device="evil<b>dev"]');
      await section.waitFor();
      await until(page, 'section[data-device="evil<b>dev"] td.value', '<script>alert(2)</script>');
      assert.equal(await section.locator('h2 .title').innerText(), evil);
      assert.equal(await section.locator('h2 .device-id').innerText(), 'evil<b>dev');
      assert.equal(await section.locator('tbody th').innerText(), '<i onmouseover=alert(3)>c');
      await section.locator('tbody th').hover();
      assert.equal(await section.locator('td.units').innerText(), '<u>u</u>');
      assert.equal(await section.locator('img, script, b, i, u').count(), 0);
      await page.waitForTimeout(300);
      assert.deepEqual(dialogs, []);
    } finally {
      for (const topic of topics) {
        await client.publishAsync(topic, '', { retain: true, qos: 1 });
      }
      await client.endAsync();
    }
  });

  test('a POST without the CSRF token, or from another site, is refused and sends no command', async () => {
    await page.goto(rig.url);
    await page.waitForSelector('tr[data-control="relay1"]');
    const status = await page.evaluate(async () => {
      const res = await fetch('/api/command', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ device: 'ctl-gpio', control: 'relay1', value: '1' }),
      });
      return [res.status, ((await res.json()) as { error: string }).error];
    });
    assert.deepEqual(status, [403, 'missing or wrong CSRF token: reload the page']);
    // Another site (localhost is not 127.0.0.1 for the browser) posting to the console.
    const attacker: Server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<form id=f method=POST action="${rig.url}api/command" enctype="text/plain"><input name='{"device":"ctl-gpio","control":"relay1","value":"1","x":"' value='"}'></form>
        <script>fetch("${rig.url}api/command",{method:"POST",mode:"no-cors",credentials:"include",body:'{"device":"ctl-gpio","control":"relay1","value":"1"}'}).finally(()=>document.getElementById("f").submit())</script>`);
    });
    await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (attacker.address() as { port: number }).port;
      await page.goto(`http://localhost:${port}/`);
      await page.waitForLoadState('load');
      await page.waitForTimeout(800);
      assert.equal(rig.outputLevel('relay1'), '0');
      assert.match(await page.content(), /CSRF token|another site|no session/);
    } finally {
      attacker.close();
    }
  });

  test('with a password: pages need a login, a wrong password is refused, the right one lets in', async () => {
    const secured = await rig.startConsole(await hashPassword('correct horse'));
    const p = await browser.context.newPage();
    try {
      // Cookies belong to the host, not the port: forget the open console's session.
      await browser.context.clearCookies();
      await p.goto(secured.url);
      assert.match(p.url(), /\/login\?next=%2F$/);
      if (SCREENSHOTS) await p.screenshot({ path: join(SCREENSHOTS, 'console-login.png') });
      const api = await p.evaluate(async () => (await fetch('/api/devices')).status);
      assert.equal(api, 401);
      await p.fill('#password', 'wrong horse');
      await p.click('button[type=submit]');
      await until(p, '#error', 'wrong password');
      await p.fill('#password', 'correct horse');
      await p.click('button[type=submit]');
      await p.waitForSelector('section[data-device="ctl-gpio"]');
      const cookies = await browser.context.cookies();
      const session = cookies.find((c) => c.name === 'ctl_console_session');
      assert.ok(session !== undefined, JSON.stringify(cookies));
      assert.equal(session.httpOnly, true);
      assert.equal(session.sameSite, 'Strict');
      assert.equal(
        await p.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie),
        '',
        'the session cookie is not readable from scripts',
      );
    } finally {
      await p.close();
    }
  });

  /** A second web server: another origin the page must never send the browser to, nor fetch from. */
  const otherSite = async (): Promise<{ port: number; requests: string[]; close(): void }> => {
    const requests: string[] = [];
    const server: Server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<p>another site</p>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    return { port: (server.address() as { port: number }).port, requests, close: () => server.close() };
  };

  test('after the login, next= leads only to a page of the console (tab, line feed, carriage return tricks too)', async () => {
    const secured = await rig.startConsole(await hashPassword('correct horse'));
    const other = await otherSite();
    const p = await browser.context.newPage();
    try {
      for (const trick of ['%09', '%0A', '%0D', '%5C']) {
        await browser.context.clearCookies();
        await p.goto(`${secured.url}login?next=/${trick}/127.0.0.1:${other.port}/`);
        await p.fill('#password', 'correct horse');
        await p.click('button[type=submit]');
        await p.waitForURL((url) => url.pathname !== '/login');
        assert.equal(new URL(p.url()).origin, new URL(secured.url).origin, `${trick}: ${p.url()}`);
      }
      assert.deepEqual(other.requests, []);
    } finally {
      await p.close();
      other.close();
    }
  });

  test('the screenshots asked for were written', { skip: SCREENSHOTS === undefined ? 'CTL_CONSOLE_SCREENSHOTS is not set' : false }, () => {
    for (const name of ['console-devices.png', 'console-login.png']) assert.ok(existsSync(join(SCREENSHOTS!, name)), name);
  });
});
