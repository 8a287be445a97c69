/**
 * A button's gestures and bindings on the configuration page, in a real browser (headless
 * chromium) against the console rig: a person turns on press detection for an input, adds a
 * binding to an output from the list of the config's outputs, saves; the service refuses a
 * gesture the input cannot make (beside that binding's field, the file unchanged), takes the fixed
 * one, and a press on the simulated line then switches the output. In Russian, the list editor
 * speaks Russian.
 */
import { parse as parseJsonc } from 'jsonc-parser';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { launchBrowser, pageShows, skipWithoutChromium, type TestBrowser } from '../../helpers/browser.js';
import { eventually, startConsoleRig, type ConsoleRig } from './console-rig.js';

const GPIO_PAGE = 'config/ctl-mqtt-gpio';
const row = (name: string): string => `li.channel[data-name="${name}"]`;

describe('button gestures and bindings on the configuration page', { skip: skipWithoutChromium }, () => {
  let rig: ConsoleRig;
  let browser: TestBrowser;

  before(async () => {
    rig = await startConsoleRig();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await rig?.close();
  });

  const openPage = async (p: Page): Promise<void> => {
    await p.goto(`${rig.url}${GPIO_PAGE}`);
    await p.waitForSelector('body[data-ready="1"]');
    await p.locator(`${row('door')} .ch-open`).click();
  };
  const door = (): Record<string, unknown> =>
    (
      parseJsonc(readFileSync(rig.configFile('gpio'), 'utf8'), [], { allowTrailingComma: true }) as {
        channels: Array<Record<string, unknown>>;
      }
    ).channels.find((c) => c['name'] === 'door')!;
  /** A press of the door's button on the simulated line, held `ms` (its debounce is 20 ms). */
  const press = async (ms: number): Promise<void> => {
    const pull = join(rig.board.inputs.find((l) => l.channel.name === 'door')!.lineDir, 'pull');
    writeFileSync(pull, 'pull-up');
    await sleep(ms);
    writeFileSync(pull, 'pull-down');
  };

  test('press detection turned on, a binding added from the outputs: saved, and a press switches the output', async () => {
    const page = await browser.context.newPage();
    try {
      await openPage(page);
      const detail = page.locator(`${row('door')} .ch-detail`);
      const bindings = detail.locator('[data-path$=".bindings"]');
      assert.equal(await bindings.isHidden(), true, 'no bindings before press detection is on');
      await detail.locator('[data-path$=".press_detection"] input').check();
      assert.equal(await bindings.isVisible(), true);
      assert.match(await bindings.innerText(), /No bindings: the presses are only counted\./);
      // A wait of 0: a single press is told at its release, and a double one is never made.
      await detail.locator('[data-path$=".second_press_wait_ms"] input').fill('0');
      await bindings.getByRole('button', { name: 'Add a binding' }).click();
      const output = bindings.locator('[data-path$=".bindings.0.output"] select');
      // The outputs offered: the board's outputs and the custom one, no input or meter.
      assert.deepEqual(await output.locator('option').evaluateAll((options) => options.map((o) => o.getAttribute('value'))), [
        'A1_OUT',
        'A2_OUT',
        'A3_OUT',
        'A4_OUT',
        '5V_OUT',
        'V_OUT',
        'relay1',
      ]);
      await output.selectOption('relay1');
      await bindings.locator('[data-path$=".bindings.0.gesture"] select').selectOption({ label: 'Double press' });
      assert.equal(await bindings.locator('[data-path$=".bindings.0.action"] select').inputValue(), 'toggle');

      // The service refuses a double press with no wait, beside that binding's gesture.
      const before = readFileSync(rig.configFile('gpio'), 'utf8');
      await page.locator('#save').click();
      const note = bindings.locator('[data-path$=".bindings.0.gesture"] > .field-problem');
      await eventually('the note beside the gesture', async () => ((await note.innerText()) === '' ? undefined : true), 20_000);
      assert.match(await note.innerText(), /second_press_wait_ms/);
      assert.equal(readFileSync(rig.configFile('gpio'), 'utf8'), before, 'the file is unchanged');

      // A second binding added and removed again leaves the first.
      await bindings.getByRole('button', { name: 'Add a binding' }).click();
      assert.equal(await bindings.locator('.binding').count(), 2);
      await bindings.getByRole('button', { name: 'Remove binding 2' }).click();
      assert.equal(await bindings.locator('.binding').count(), 1);

      await bindings.locator('[data-path$=".bindings.0.gesture"] select').selectOption('single');
      await page.locator('#save').click();
      await pageShows(page, '#result', /^Saved; ctl-mqtt-gpio applied it/, 30_000);
      assert.deepEqual(door(), {
        name: 'door',
        gpio: { chip: '/dev/gpiochip0', offset: 16 },
        direction: 'input',
        debounce: 20000,
        press_detection: true,
        second_press_wait_ms: 0,
        bindings: [{ gesture: 'single', output: 'relay1', action: 'toggle' }],
      });

      // The service runs what was saved: a short press toggles relay1, a second one back.
      assert.equal(rig.outputLevel('relay1'), '0');
      await press(80);
      await eventually('relay1 on', () => (rig.outputLevel('relay1') === '1' ? true : undefined), 10_000);
      await press(80);
      await eventually('relay1 off', () => (rig.outputLevel('relay1') === '0' ? true : undefined), 10_000);
    } finally {
      await page.close({ runBeforeUnload: false });
    }
  });

  test('in a Russian browser the bindings are edited in Russian', async () => {
    // The binding the test above saved.
    const page = await browser.context.newPage();
    try {
      await page.addInitScript(() =>
        Object.defineProperty((globalThis as unknown as { navigator: object }).navigator, 'language', { get: () => 'ru-RU' }),
      );
      await openPage(page);
      const bindings = page.locator(`${row('door')} [data-path$=".bindings"]`);
      assert.equal(await bindings.locator('.group-title').innerText(), 'Привязки');
      assert.equal(await bindings.locator('[data-path$=".bindings.0.gesture"] label').innerText(), 'Нажатие');
      assert.equal(await bindings.locator('[data-path$=".bindings.0.gesture"] select option:checked').innerText(), 'Короткое');
      assert.equal(await bindings.locator('[data-path$=".bindings.0.action"] select option:checked').innerText(), 'Переключить');
      assert.equal(await bindings.getByRole('button', { name: 'Удалить привязку 1' }).count(), 1);
      assert.equal(await bindings.getByRole('button', { name: 'Добавить привязку' }).count(), 1);
    } finally {
      await page.close({ runBeforeUnload: false });
    }
  });
});
