/**
 * The console behind Wiren Board's homeui gate (the package's gates.d file; docs/console.md): a
 * real nginx proxies as the gate does, and a real browser opens the console under the
 * controller's name (`controller.test`, mapped to 127.0.0.1 in the browser), as a person who
 * picked it from homeui's menu. nginx passes that name without its port (`Host $host`), so only a
 * console that names the gate with `--trusted-proxy 127.0.0.1` (the package's default) takes it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, pageShows, skipWithoutChromium, type TestBrowser } from '../../helpers/browser.js';
import { http } from '../../helpers/console-http.js';
import { skipWithoutNginx, startNginxGate, type NginxGate } from '../../helpers/nginx-gate.js';
import { startConsoleRig, type ConsoleRig } from './console-rig.js';

const portOf = (url: string): number => Number(new URL(url).port);

describe('the console behind homeui’s gate', { skip: skipWithoutChromium || skipWithoutNginx }, () => {
  let rig: ConsoleRig;
  let browser: TestBrowser;
  let gate: NginxGate;
  let untrusting: NginxGate;

  before(async () => {
    rig = await startConsoleRig();
    const trusting = await rig.startConsole(null, ['127.0.0.1']);
    gate = await startNginxGate(portOf(trusting.url));
    untrusting = await startNginxGate(portOf(rig.url));
    browser = await launchBrowser({ hostRules: 'MAP controller.test 127.0.0.1' });
  });
  after(async () => {
    await browser?.close();
    await gate?.close();
    await untrusting?.close();
    await rig?.close();
  });

  test('without --trusted-proxy the gate’s requests are refused (the loopback console’s DNS-rebinding check)', async () => {
    const answer = await http(`http://127.0.0.1:${untrusting.port}/`, { headers: { Host: `controller.test:${untrusting.port}` } });
    assert.equal(answer.status, 421);
    assert.match(answer.body, /answers only on a loopback address \(got Host: \\?"controller\.test\\?"\)/);
  });

  test('with it: the devices page streams live values, and a configuration saves, through the gate', async () => {
    const base = `http://controller.test:${gate.port}/`;
    const page = await browser.context.newPage();
    await page.goto(base);
    // The values come in over the page's event stream, which nginx must not hold back.
    await pageShows(page, 'section[data-device="ctl-adc"] tr[data-control="Vin"] td.value', /^\d+\.\d+$/, 20_000);

    await page.goto(`${base}config/ctl-mqtt-gpio`);
    await page.waitForSelector('body[data-ready="1"]');
    const deviceName = page.locator('[data-path="device_name"] input');
    await deviceName.fill('Through the gate');
    // A POST's Origin carries the gate's port, its Host (from nginx) does not: same site all the same.
    await page.locator('#save').click();
    await pageShows(page, '#result', /^Saved; ctl-mqtt-gpio applied it\./, 30_000);
    assert.match(readFileSync(rig.configFile('gpio'), 'utf8'), /"device_name": "Through the gate"/);
    await page.close();
  });

  test('a POST from another site is still refused through the gate', async () => {
    const answer = await http(`http://127.0.0.1:${gate.port}/api/session`, {
      method: 'POST',
      headers: { Host: `controller.test:${gate.port}`, Origin: 'http://evil.test', 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(answer.status, 403);
    assert.match(answer.body, /another site/);
  });
});
