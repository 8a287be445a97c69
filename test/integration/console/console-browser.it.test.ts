/**
 * The web console in a real browser (headless chromium) against the console rig: a real broker,
 * both services on the simulated board. What a person does: watch the devices, switch a relay,
 * set a meter total, edit a GPIO channel in the form and save, make an invalid edit, log in; and
 * what an attacker tries: a POST without the CSRF token, a cross-site request, markup in MQTT
 * names and values. With CTL_CONSOLE_SCREENSHOTS=DIR the pages are also saved as PNG in DIR
 * (the pictures in docs/ are made that way).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { hashPassword } from '../../../src/console/password.js';
import { connectTestClient } from '../../helpers/mqtt-recorder.js';
import { launchBrowser, skipWithoutChromium, type TestBrowser } from '../../helpers/browser.js';
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

  /**
   * Waits until the first element matching `selector` has this text (or input value). Polled from
   * here: the console's CSP forbids the string evaluation waitForFunction would need.
   */
  const until = (p: Page, selector: string, expected: string | RegExp, timeoutMs = 15_000): Promise<string> =>
    eventually(`${selector} to show ${String(expected)}`, async () => {
      const el = p.locator(selector).first();
      if ((await el.count()) === 0) return undefined;
      const text = await el.evaluate((e) => ('value' in e && typeof e.value === 'string' && e.tagName === 'INPUT' ? e.value : (e.textContent ?? '')) as string);
      return (typeof expected === 'string' ? text === expected : expected.test(text)) ? text : undefined;
    }, timeoutMs);
  /** name=value of every channel name field of the form. */
  const nameFields = (): Promise<string[]> =>
    page.locator('input[name^="root[channels]"][name$="[name]"]').evaluateAll((els) => (els as unknown as Array<{ name: string; value: string }>).map((e) => `${e.name}=${e.value}`));

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
      const c = rig.console.feed.snapshot().devices.find((d) => d.id === 'ctl-gpio')?.controls.find((x) => x.name === 'A1_IN_total');
      return c?.value === '1234.500' ? c.value : undefined;
    });
    assert.equal(value, '1234.500');
    await until(page, 'tr[data-control="A1_IN_total"] input', '1234.500');
  });

  test('editing a GPIO channel in the form and saving changes the file and the published controls', async () => {
    const file = rig.configFile('gpio');
    const before = readFileSync(file, 'utf8');
    await page.goto(`${rig.url}config/ctl-mqtt-gpio`);
    await page.waitForSelector('body[data-ready="1"]');
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, 'console-config.png') });
    const names = await nameFields();
    const doorField = names.find((n) => n.endsWith('=door'))?.split('=')[0];
    assert.ok(doorField !== undefined, `the form has the door channel's name field: ${names.join(', ')}`);
    await page.locator(`input[name="${doorField}"]`).fill('door_contact');
    await page.locator(`input[name="${doorField}"]`).blur();
    await page.locator('#save').click();
    await until(page, '#result', /^Saved/, 20_000);
    assert.equal(await page.locator('#result').innerText(), 'Saved; ctl-mqtt-gpio applied it.');
    const after = readFileSync(file, 'utf8');
    assert.match(after, /"name": "door_contact"/);
    assert.doesNotMatch(after, /"name": "door"/);
    // Nothing else changed: a key the form has no field for (debounce) is kept, and keys the
    // file did not have are not filled with defaults (an unset edge means autodetect).
    const channels = (JSON.parse(after) as { channels: Array<Record<string, unknown>> }).channels;
    assert.deepEqual(channels.find((c) => c['name'] === 'door_contact'), { name: 'door_contact', gpio: { chip: '/dev/gpiochip0', offset: 16 }, direction: 'input', debounce: 20000 });
    assert.deepEqual(channels.find((c) => c['name'] === 'A1_IN'), { name: 'A1_IN', type: 'watt_meter', multiplier: 1000, decimal_points_current: 1, decimal_points_total: 3 });
    assert.equal(readFileSync(`${file}.bak`, 'utf8'), before);
    // The restarted service publishes the renamed control and clears the old one.
    await eventually('door_contact published, door gone', () => {
      const controls = rig.console.feed.snapshot().devices.find((d) => d.id === 'ctl-gpio')?.controls.map((c) => c.name) ?? [];
      return controls.includes('door_contact') && !controls.includes('door') ? true : undefined;
    }, 20_000);
  });

  test('an invalid edit shows the problem and leaves the file as it was', async () => {
    const file = rig.configFile('gpio');
    const before = readFileSync(file, 'utf8');
    const backup = readFileSync(`${file}.bak`, 'utf8');
    await page.goto(`${rig.url}config/ctl-mqtt-gpio`);
    await page.waitForSelector('body[data-ready="1"]');
    const names = await nameFields();
    const relayField = names.find((n) => n.endsWith('=relay1'))!.split('=')[0]!;
    // Schema-valid, but two channels with one name: only the service's -J knows.
    await page.locator(`input[name="${relayField}"]`).fill('door_contact');
    await page.locator(`input[name="${relayField}"]`).blur();
    await page.locator('#save').click();
    await page.waitForSelector('#problems:not([hidden])');
    const problems = await page.locator('#problems').innerText();
    assert.match(problems, /refused the configuration \(the file is unchanged\)/);
    assert.match(problems, /door_contact/);
    assert.ok((await page.locator('.field-problem').count()) >= 1, 'the problem is shown beside a field');
    if (SCREENSHOTS) {
      await page.locator('#problems').scrollIntoViewIfNeeded();
      await page.mouse.wheel(0, -10_000);
      await page.screenshot({ path: join(SCREENSHOTS, 'console-config-problem.png') });
    }
    // Schema-invalid: an empty name is caught in the page, nothing is sent.
    await page.locator(`input[name="${relayField}"]`).fill('');
    await page.locator(`input[name="${relayField}"]`).blur();
    await page.locator('#save').click();
    await until(page, '#problems-title', 'Not saved: the form has problems');
    assert.equal(readFileSync(file, 'utf8'), before);
    assert.equal(readFileSync(`${file}.bak`, 'utf8'), backup);
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
      const res = await fetch('/api/command', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ device: 'ctl-gpio', control: 'relay1', value: '1' }) });
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
      assert.equal(await p.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie), '', 'the session cookie is not readable from scripts');
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

  test('two pages editing one configuration: the second save is refused and keeps its edit', async () => {
    const file = rig.configFile('gpio');
    await browser.context.clearCookies();
    const first = await browser.context.newPage();
    const second = await browser.context.newPage();
    try {
      for (const p of [first, second]) {
        await p.goto(`${rig.url}config/ctl-mqtt-gpio`);
        await p.waitForSelector('body[data-ready="1"]');
      }
      const deviceName = 'input[name="root[device_name]"]';
      await first.locator(deviceName).fill('Saved first');
      await first.locator(deviceName).blur();
      await first.locator('#save').click();
      await until(first, '#result', /^Saved/, 20_000);
      await second.locator(deviceName).fill('Saved second');
      await second.locator(deviceName).blur();
      await second.locator('#save').click();
      await second.waitForSelector('#problems:not([hidden])');
      assert.match(await second.locator('#problems').innerText(), /was changed \(by another page, or by hand\) since this page loaded it/);
      assert.equal(await second.locator(deviceName).inputValue(), 'Saved second', 'the edit is still in the form');
      assert.match(readFileSync(file, 'utf8'), /"device_name": "Saved first"/);
    } finally {
      await first.close();
      await second.close();
    }
  });

  test('a save refused because the session ended keeps the edit: it is back in the form after the login', async () => {
    const secured = await rig.startConsole(await hashPassword('correct horse'));
    await browser.context.clearCookies();
    const p = await browser.context.newPage();
    try {
      await p.goto(`${secured.url}config/ctl-mqtt-gpio`);
      await p.fill('#password', 'correct horse');
      await p.click('button[type=submit]');
      await p.waitForSelector('body[data-ready="1"]');
      const deviceName = 'input[name="root[device_name]"]';
      await p.locator(deviceName).fill('Edited before the logout');
      await p.locator(deviceName).blur();
      // Logged out from another tab meanwhile.
      const other = await browser.context.newPage();
      await other.goto(secured.url);
      await other.locator('nav button').click();
      await other.waitForURL((url) => url.pathname === '/login');
      await other.close();
      await p.locator('#save').click();
      await p.waitForSelector('#password');
      await p.fill('#password', 'correct horse');
      await p.click('button[type=submit]');
      await p.waitForSelector('body[data-ready="1"]');
      await until(p, deviceName, 'Edited before the logout');
      assert.match(await p.locator('#result').innerText(), /unsaved edit is back in the form/);
    } finally {
      await p.close();
    }
  });

  test('markup typed in a channel name is shown as text in the form and fetches nothing', async () => {
    const other = await otherSite();
    await browser.context.clearCookies();
    const p = await browser.context.newPage();
    try {
      await p.goto(`${rig.url}config/ctl-mqtt-gpio`);
      await p.waitForSelector('body[data-ready="1"]');
      const names = await p.locator('input[name^="root[channels]"][name$="[name]"]').evaluateAll((els) => (els as unknown as Array<{ name: string }>).map((e) => e.name));
      const evil = `<img src=http://127.0.0.1:${other.port}/x>`;
      await p.locator(`input[name="${names[0]}"]`).fill(evil);
      await p.locator(`input[name="${names[0]}"]`).blur();
      // The channel's heading follows its name (headerTemplate): the same characters, as text.
      await eventually('the heading with the typed name', async () => {
        const texts = await p.locator('#form h3, #form label, #form span').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
        return texts.some((t) => t.trim() === evil) ? true : undefined;
      });
      assert.equal(await p.locator('#form img').count(), 0);
      // A request the page did make, to the console, after the typing: anything fetched from the
      // name would have been sent before it.
      assert.equal(await p.evaluate(async () => (await fetch('/api/session')).status), 200);
      assert.deepEqual(other.requests, []);
    } finally {
      await p.close();
      other.close();
    }
  });

  test('the screenshots asked for were written', { skip: SCREENSHOTS === undefined ? 'CTL_CONSOLE_SCREENSHOTS is not set' : false }, () => {
    for (const name of ['console-devices.png', 'console-config.png', 'console-config-problem.png', 'console-login.png']) assert.ok(existsSync(join(SCREENSHOTS!, name)), name);
  });
});
