/**
 * The console's two languages in a real browser (headless chromium) against the console rig:
 * Russian for a Russian browser on every page (menu, devices, groups, units, numbers, charts,
 * login), a switch in the header that every page and the next visit keep, and a decimal comma
 * taken in the devices page's number field and in the configuration form.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { hashPassword } from '../../../src/console/auth/password.js';
import { MqttRecorder } from '../../helpers/mqtt-recorder.js';
import { launchBrowser, pageShows, skipWithoutChromium, type TestBrowser } from '../../helpers/browser.js';
import { startConsoleRig, type ConsoleRig } from './console-rig.js';

if (skipWithoutChromium) console.log(`# ${skipWithoutChromium}`);

/** With CTL_CONSOLE_SCREENSHOTS=DIR the Russian pages are saved as PNG in DIR (the pictures in docs/). */
const SCREENSHOTS = process.env['CTL_CONSOLE_SCREENSHOTS'];

const TOTAL_ON = '/devices/ctl-gpio/controls/A1_IN_total/on';

describe('languages of the console, in a browser', { skip: skipWithoutChromium }, () => {
  let rig: ConsoleRig;
  let browser: TestBrowser;
  let recorder: MqttRecorder;

  before(async () => {
    rig = await startConsoleRig();
    browser = await launchBrowser();
    recorder = await MqttRecorder.start(rig.broker.url, [TOTAL_ON]);
  });
  after(async () => {
    await recorder?.close();
    await browser?.close();
    await rig?.close();
  });

  /** A page of a browser whose language is `language` (its storage is the context's: shared by its pages). */
  const pageIn = async (context: BrowserContext, language: string): Promise<Page> => {
    const p = await context.newPage();
    await p.addInitScript((lang) => {
      Object.defineProperty((globalThis as unknown as { navigator: object }).navigator, 'language', { get: () => lang });
    }, language);
    return p;
  };
  const until = (p: Page, selector: string, expected: string | RegExp): Promise<string> => pageShows(p, selector, expected, 15_000);

  test('a Russian browser gets every text of the devices page in Russian, numbers and units too', async () => {
    const p = await pageIn(browser.context, 'ru-RU');
    try {
      await p.goto(rig.url);
      await p.waitForSelector('tr[data-control="Vin"]');
      assert.equal(
        await p.evaluate(
          () => (globalThis as unknown as { document: { documentElement: { lang: string } } }).document.documentElement.lang,
        ),
        'ru',
      );
      assert.equal(await p.locator('#nav a[href="/"]').getAttribute('aria-label'), 'Устройства');
      assert.equal(await p.locator('#nav a[href="/config/ctl-mqtt-gpio"]').getAttribute('aria-label'), 'Настройки ctl-mqtt-gpio');
      await until(p, '#status', 'в сети');
      assert.deepEqual(await p.locator('section[data-device="ctl-gpio"] thead th').allInnerTexts(), [
        'Элемент',
        'Значение',
        'Ед. изм.',
        'За час',
      ]);
      assert.equal(await p.locator('section[data-device="ctl-gpio"] tr.group-head[data-group="meters"] th').innerText(), 'СЧЁТЧИКИ');
      assert.equal(await p.locator('tr[data-control="Vin"] td.units').innerText(), 'В');
      assert.equal(await p.locator('tr[data-control="A1_IN_total"] td.units').innerText(), 'кВт·ч');
      // Numbers with the decimal comma, in the readings and in the field.
      await until(p, 'tr[data-control="Vin"] td.value', /^\d+,\d$/);
      await until(p, 'tr[data-control="A1_IN_total"] form.set-number input', /^\d+,\d{3}$/);
      assert.equal(await p.locator('tr[data-control="relay1"] .switch-text').innerText(), 'выкл');
      assert.equal(await p.locator('tr[data-control="A1_IN_total"] form.set-number button').innerText(), 'Задать');
      // A chart says it in Russian.
      await p.locator('tr[data-control="Vin"] button.spark').click();
      await until(
        p,
        'tr[data-chart-for="Vin"] .chart-summary',
        /^Последний час: мин\. [\d,]+ В, среднее [\d,]+ В, макс\. [\d,]+ В \(\d+ значени[йея]\)\.$/,
      );
      assert.equal(await p.locator('tr[data-chart-for="Vin"] button[data-view="day"]').innerText(), '24 часа');
      if (SCREENSHOTS) {
        await p.setViewportSize({ width: 1366, height: 900 });
        await p.screenshot({ path: join(SCREENSHOTS, 'console-devices-ru.png'), fullPage: true });
        await p.setViewportSize({ width: 390, height: 844 });
        await p.reload();
        await p.locator('tr[data-control="A1_IN_total"] button.spark').click();
        await p.locator('tr[data-chart-for="A1_IN_total"] svg.chart').waitFor();
        await p.screenshot({ path: join(SCREENSHOTS, 'console-devices-ru-390.png'), fullPage: true });
        await p.goto(`${rig.url}config/ctl-mqtt-gpio`);
        await p.waitForSelector('body[data-ready="1"]');
        await p.screenshot({ path: join(SCREENSHOTS, 'console-config-ru-390.png') });
        await p.setViewportSize({ width: 1366, height: 900 });
        await p.reload();
        await p.waitForSelector('body[data-ready="1"]');
        await p.screenshot({ path: join(SCREENSHOTS, 'console-config-ru.png') });
      }
    } finally {
      await p.close();
    }
  });

  test('a decimal comma is taken in the number field: 12,5 is sent as 12.5', async () => {
    const p = await pageIn(browser.context, 'ru-RU');
    try {
      await p.goto(rig.url);
      const input = p.locator('tr[data-control="A1_IN_total"] form.set-number input');
      await input.waitFor();
      await input.fill('-1,5');
      await until(p, 'tr[data-control="A1_IN_total"] .field-error', 'показание счётчика не может быть отрицательным');
      await input.fill('12,5');
      await until(p, 'tr[data-control="A1_IN_total"] .field-error', '');
      const mark = recorder.mark();
      await input.press('Enter');
      assert.equal((await recorder.waitForTopic(TOTAL_ON, undefined, { from: mark })).payload, '12.5');
    } finally {
      await p.close();
    }
  });

  test('the switch changes the language of every page, and the page remembers it', async () => {
    const context = (await launchBrowser()).context;
    try {
      const p = await pageIn(context, 'en-US');
      await p.goto(rig.url);
      await p.waitForSelector('tr[data-control="Vin"]');
      assert.equal(await p.locator('.language button[aria-pressed="true"]').innerText(), 'EN');
      await until(p, '#status', 'live');
      await Promise.all([p.waitForEvent('load'), p.locator('.language button[lang="ru"]').click()]);
      await p.waitForSelector('tr[data-control="Vin"]');
      await until(p, '#status', 'в сети');
      assert.equal(await p.locator('.language button[aria-pressed="true"]').innerText(), 'RU');
      // Another page, and a visit later: still Russian in an English browser.
      await p.goto(`${rig.url}config/ctl-mqtt-gpio`);
      await p.waitForSelector('body[data-ready="1"]');
      assert.equal(await p.locator('#save').innerText(), 'Сохранить и применить');
      assert.equal(await p.locator('[data-path="device_name"] label').innerText(), 'Имя устройства в MQTT');
      const later = await pageIn(context, 'en-US');
      const secured = await rig.startConsole(await hashPassword('correct horse'));
      await later.goto(secured.url);
      await later.waitForSelector('#password');
      // The login page is another origin here (another port): its own storage, the browser's language.
      assert.equal(await later.locator('h1').innerText(), 'Log in');
      await Promise.all([later.waitForEvent('load'), later.locator('.language button[lang="ru"]').click()]);
      assert.equal(await later.locator('h1').innerText(), 'Вход');
      await later.fill('#password', 'wrong horse');
      await later.click('button[type=submit]');
      await until(later, '#error', 'неверный пароль');
      // Back to English with the switch.
      await p.goto(rig.url);
      await p.waitForSelector('tr[data-control="Vin"]');
      await Promise.all([p.waitForEvent('load'), p.locator('.language button[lang="en"]').click()]);
      await until(p, '#status', 'live');
      assert.deepEqual(await p.locator('section[data-device="ctl-gpio"] thead th').allInnerTexts(), [
        'Control',
        'Value',
        'Units',
        'Last hour',
      ]);
    } finally {
      await context.close();
    }
  });

  test("the console's own answers come in the page's language, also in an English browser", async () => {
    const context = (await launchBrowser()).context;
    const file = rig.configFile('adc');
    const text = readFileSync(file, 'utf8');
    try {
      const p = await pageIn(context, 'en-US');
      // Russian chosen with the switch: the browser's own Accept-Language stays English.
      await p.addInitScript(() =>
        (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(
          'ctl-console-language',
          'ru',
        ),
      );
      await p.goto(`${rig.url}config/ctl-mqtt-adc`);
      await p.waitForSelector('body[data-ready="1"]');
      const row = p.locator('li.channel[data-name="pressure_loop"]');
      await row.locator('.ch-open').first().click();
      await row.locator('[data-path$=".voltage_multiplier"] input').fill('0,5');
      // Someone edits the file meanwhile: the save is refused (409), in the console's own words.
      writeFileSync(file, `${text}\n`);
      await p.click('#save');
      await until(p, '#problems-list li', /^.*изменён \(на другой странице или вручную\) после того, как эта страница его загрузила/);
    } finally {
      writeFileSync(file, text);
      await context.close();
    }
  });

  test('the configuration form takes a decimal comma', async () => {
    const p = await pageIn(browser.context, 'ru-RU');
    try {
      await p.goto(`${rig.url}config/ctl-mqtt-adc`);
      await p.waitForSelector('body[data-ready="1"]');
      const row = p.locator('li.channel[data-name="pressure_loop"]');
      await row.locator('.ch-open').first().click();
      const field = row.locator('[data-path$=".voltage_multiplier"]');
      await field.locator('input').fill('0,5');
      await field.locator('input').blur();
      assert.equal(await field.locator('.field-problem').isVisible(), false);
      assert.equal(await p.locator('#save').isDisabled(), false);
      await field.locator('input').fill('0,5,1');
      await field.locator('input').blur();
      assert.equal(await field.locator('.field-problem').innerText(), 'Введите число, например 1,5.');
    } finally {
      await p.close();
    }
  });
});
