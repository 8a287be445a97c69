/**
 * The configuration page's words in a real browser at a desktop's 1366 px, in English and
 * Russian: the channel list without the schema's prose about its items (`Items are channel
 * objects.`), and each channel's value as the devices page writes it (a switch `on` / `off`, a
 * meter's total with its units, in the page's language).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { launchBrowser, pageShows, skipWithoutChromium } from '../../helpers/browser.js';
import { startConsoleRig, type ConsoleRig } from './console-rig.js';

if (skipWithoutChromium) console.log(`# ${skipWithoutChromium}`);

describe('configuration page words, in a browser', { skip: skipWithoutChromium }, () => {
  let rig: ConsoleRig;

  before(async () => {
    rig = await startConsoleRig();
  });
  after(async () => {
    await rig?.close();
  });

  const until = (p: Page, selector: string, expected: string | RegExp): Promise<string> => pageShows(p, selector, expected, 20_000);
  const row = (name: string): string => `li.channel[data-name="${name}"]`;
  const openPage = async (p: Page): Promise<void> => {
    await p.goto(`${rig.url}config/ctl-mqtt-gpio`);
    await p.waitForSelector('body[data-ready="1"]');
  };

  test("at 1366 px, in English and Russian: no schema prose about the list's items, values in words", async () => {
    const words = {
      en: { prose: /Items are|objects\./, switch: /^(?:on|off)$/, meter: /^\d+\.\d{3} kWh$/ },
      ru: { prose: /^Список каналов\.$|Items are/, switch: /^(?:вкл|выкл)$/, meter: /^\d+,\d{3} кВт·ч$/ },
    };
    for (const [language, expected] of Object.entries(words)) {
      const own = await launchBrowser();
      try {
        const p = await own.context.newPage();
        await p.setViewportSize({ width: 1366, height: 900 });
        await p.addInitScript(
          (lang) =>
            (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(
              'ctl-console-language',
              lang,
            ),
          language,
        );
        await openPage(p);
        const help = await p.locator('#channels .help, #channels p').allInnerTexts();
        assert.deepEqual(
          help.filter((text) => expected.prose.test(text)),
          [],
          `${language}: the schema's description of its array is not the form's help`,
        );
        await until(p, `${row('relay1')} .ch-state`, expected.switch);
        await until(p, `${row('door')} .ch-state`, expected.switch);
        await until(p, `${row('A1_IN')} .ch-state`, expected.meter);
      } finally {
        await own.close();
      }
    }
  });
});
