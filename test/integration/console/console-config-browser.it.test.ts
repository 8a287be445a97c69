/**
 * The configuration page in a real browser (headless chromium) against the console rig: a real
 * broker, both services on the simulated board, the demo's console. What a person does: type a
 * setting key by key, open a channel from the list with the keyboard, use the page on a phone
 * (390 px), save a channel on a line the controller does not have, save what the service refuses,
 * put an earlier version back, leave with unsaved changes, read it in Russian (a refused save
 * too); and two pages or an ended session around one edit. With CTL_CONSOLE_SCREENSHOTS=DIR the page is also saved as
 * PNG in DIR (console-config.png, console-config-phone.png, console-config-problem.png in docs/).
 */
import { parse as parseJsonc } from 'jsonc-parser';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { hashPassword } from '../../../src/console/auth/password.js';
import { SERVICE_FILES } from '../../../src/demo/demo-paths.js';
import { launchBrowser, skipWithoutChromium, type TestBrowser, pageShows } from '../../helpers/browser.js';
import { eventually, startConsoleRig, type ConsoleRig } from './console-rig.js';

const SCREENSHOTS = process.env['CTL_CONSOLE_SCREENSHOTS'];
const GPIO_PAGE = 'config/ctl-mqtt-gpio';

if (skipWithoutChromium) console.log(`# ${skipWithoutChromium}`);

/** Whether the GPIO binary lists lines (the listing may not be in this build yet). */
const listsLines = (): boolean =>
  /--list-lines/.test(spawnSync(process.execPath, [SERVICE_FILES.gpio.entry, '--help'], { encoding: 'utf8' }).stdout ?? '');

/** The page's globals as the functions run in the browser see them (no DOM library here). */
interface PageNode {
  readonly id: string;
  readonly className: string;
  readonly textContent: string | null;
  closest(selector: string): PageNode | null;
  getAttribute(name: string): string | null;
}

/** Internal ids of a form library that must reach neither the eye nor a screen reader. */
const INTERNAL_ID = /root\[|root\.|opt-in|switcher/;

describe('configuration page in a browser', { skip: skipWithoutChromium }, () => {
  let rig: ConsoleRig;
  let browser: TestBrowser;
  let page: Page;
  /** Answer of the next confirm(): true accepts. */
  let confirmAnswer = true;
  const dialogs: string[] = [];

  before(async () => {
    rig = await startConsoleRig();
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void (confirmAnswer ? d.accept() : d.dismiss());
    });
  });
  after(async () => {
    await browser?.close();
    await rig?.close();
  });

  const until = (p: Page, selector: string, expected: string | RegExp, timeoutMs = 20_000): Promise<string> =>
    pageShows(p, selector, expected, timeoutMs);

  const openPage = async (p: Page = page, path = GPIO_PAGE): Promise<void> => {
    await p.goto(`${rig.url}${path}`);
    await p.waitForSelector('body[data-ready="1"]');
  };
  const row = (name: string): string => `li.channel[data-name="${name}"]`;
  /** Opens a channel's settings (a click on an open one would close it). */
  const openChannel = async (p: Page, rowSelector: string): Promise<void> => {
    const toggle = p.locator(`${rowSelector} .ch-open`).first();
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  };
  const channelField = (name: string, key: string): string => `${row(name)} [data-path$=".${key}"] input`;
  const channels = (): Array<Record<string, unknown>> =>
    // The file keeps its comments through a save: read as JSON with comments.
    (
      parseJsonc(readFileSync(rig.configFile('gpio'), 'utf8'), [], { allowTrailingComma: true }) as {
        channels: Array<Record<string, unknown>>;
      }
    ).channels;

  test('a setting typed key by key, a channel renamed: saved, applied, the changed channel seen working', async () => {
    await openPage();
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, 'console-config.png'), fullPage: true });
    const deviceName = page.locator('[data-path="device_name"] input');
    await deviceName.click();
    await deviceName.press('Control+a');
    await deviceName.pressSequentially('Garage I/O', { delay: 5 });
    assert.equal(await deviceName.inputValue(), 'Garage I/O');
    await page.locator(`${row('door')} .ch-open`).click();
    const name = page.locator(channelField('door', 'name'));
    await name.fill('');
    await name.pressSequentially('door_contact', { delay: 5 });
    // The row follows the typing.
    assert.equal(await page.locator('li.channel[data-index="10"] .ch-name').innerText(), 'door_contact');
    await page.locator('#save').click();
    await until(page, '#result', /channels work\./);
    // Before the hardware listing, the page says the lines were not checked (after it, nothing).
    assert.match(
      await page.locator('#result').innerText(),
      /^Saved; ctl-mqtt-gpio applied it and the changed channels work\.( The lines were not checked against the hardware: .*)?$/,
    );
    assert.equal(await page.locator('#result').getAttribute('class'), 'result ok');
    // The value in words, as the devices page writes it: a switch is on or off, not 1 or 0.
    assert.match(await page.locator('#after').innerText(), /door_contact — works \((?:on|off)\)$/m);
    const file = readFileSync(rig.configFile('gpio'), 'utf8');
    assert.match(file, /"device_name": "Garage I\/O"/);
    // Nothing else changed: the key the form has no field for (debounce) is kept, and no default
    // was added to a channel that did not have it (an unset edge means autodetect).
    assert.deepEqual(
      channels().find((c) => c['name'] === 'door_contact'),
      { name: 'door_contact', gpio: { chip: '/dev/gpiochip0', offset: 16 }, direction: 'input', debounce: 20000 },
    );
    assert.deepEqual(
      channels().find((c) => c['name'] === 'A1_IN'),
      { name: 'A1_IN', type: 'watt_meter', multiplier: 1000, decimal_points_current: 1, decimal_points_total: 3 },
    );
  });

  test("the demo's own configs: Save only once something changed; saved and applied, GPIO and ADC; every comment kept", async () => {
    const commentLines = (text: string): string[] => text.match(/^\s*\/\/.*$/gm) ?? [];
    for (const [kind, id] of [
      ['gpio', 'ctl-mqtt-gpio'],
      ['adc', 'ctl-mqtt-adc'],
    ] as const) {
      const before = readFileSync(rig.configFile(kind), 'utf8');
      await openPage(page, `config/${id}`);
      const save = page.locator('#save');
      assert.equal(await save.isDisabled(), true, `${id}: nothing changed yet`);
      const deviceName = page.locator('[data-path="device_name"] input');
      const name = await deviceName.inputValue();
      await deviceName.fill(`${name} (edited)`);
      assert.equal(await save.isDisabled(), false, `${id}: a change enables Save`);
      await deviceName.fill(name);
      assert.equal(await save.isDisabled(), true, `${id}: the change undone, nothing to save`);
      await deviceName.fill(`${name} (saved)`);
      await save.click();
      // The hardware check applies match_iio as the service does: the example's "2198000.adc",
      // without a wildcard, is the simulated ADC whose link target contains it.
      await until(page, '#result', new RegExp(`^Saved; ${id} applied it\\.`));
      assert.equal(await page.locator('#problems').isHidden(), true, id);
      assert.ok(commentLines(before).length > 3, `${id}: the file has comments`);
      assert.deepEqual(commentLines(readFileSync(rig.configFile(kind), 'utf8')), commentLines(before), `${id}: every comment kept`);
    }
  });

  test('keyboard: Tab reaches the channel rows, Enter opens one, its fields follow; no internal id is shown or read', async () => {
    await openPage();
    const focusedIs = async (): Promise<string> =>
      page.evaluate(() => {
        const active = (globalThis as unknown as { document: { activeElement: PageNode | null } }).document.activeElement;
        return `${active?.className ?? ''}|${active?.closest('li.channel')?.getAttribute('data-name') ?? ''}`;
      });
    const inDetail = (): Promise<boolean> =>
      page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: PageNode | null } }).document.activeElement?.closest('.ch-detail') != null,
      );
    let seen = '';
    for (let i = 0; i < 30 && !seen.startsWith('ch-open|'); i++) {
      await page.keyboard.press('Tab');
      seen = await focusedIs();
    }
    assert.equal(seen, 'ch-open|A1_IN', 'the first channel row is reached by Tab');
    assert.equal(await page.locator(`${row('A1_IN')} .ch-open`).getAttribute('aria-expanded'), 'false');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator(`${row('A1_IN')} .ch-open`).getAttribute('aria-expanded'), 'true');
    // The next Tab stops go through the move buttons into the opened channel's first field.
    for (let i = 0; i < 4 && !(await inDetail()); i++) await page.keyboard.press('Tab');
    assert.equal(await inDetail(), true, 'Tab goes into the opened settings');
    // What a screen reader reads: every control has a name, none of them an internal id.
    const names = await page.locator('#form input, #form select, #form button').evaluateAll((els) =>
      (els as unknown as PageNode[]).map((e) => {
        const doc = (
          globalThis as unknown as { document: { querySelector(s: string): PageNode | null; getElementById(id: string): PageNode | null } }
        ).document;
        const labelledBy = e.getAttribute('aria-labelledby');
        const label = e.id ? doc.querySelector(`label[for="${e.id}"]`)?.textContent : null;
        return (
          e.getAttribute('aria-label') ??
          label ??
          (labelledBy ? doc.getElementById(labelledBy)?.textContent : null) ??
          e.textContent ??
          ''
        ).trim();
      }),
    );
    assert.ok(names.length > 20);
    assert.deepEqual(
      names.filter((n) => n === ''),
      [],
      'every control has a name',
    );
    assert.deepEqual(
      names.filter((n) => INTERNAL_ID.test(n)),
      [],
    );
    assert.doesNotMatch(await page.locator('main').innerText(), INTERNAL_ID);
  });

  test('at 390 px: nothing wider than the screen, and the GPIO page short', async () => {
    const phone = await browser.context.newPage();
    try {
      await phone.setViewportSize({ width: 390, height: 844 });
      await openPage(phone);
      await phone.locator(`${row('relay1')} .ch-open`).click();
      const size = await phone.evaluate(() => {
        const root = (
          globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number; scrollHeight: number } } }
        ).document.documentElement;
        return { scroll: root.scrollWidth, client: root.clientWidth, height: root.scrollHeight };
      });
      assert.ok(size.scroll <= size.client, `no horizontal scroll (${size.scroll} px in ${size.client} px)`);
      assert.ok(size.height < 2500, `the page with one channel open is ${size.height} px high`);
      if (SCREENSHOTS) await phone.screenshot({ path: join(SCREENSHOTS, 'console-config-phone.png'), fullPage: true });
    } finally {
      await phone.close();
    }
  });

  test(
    'a channel on a line past the chip end is refused at its field, the file unchanged',
    {
      skip: listsLines()
        ? false
        : 'ctl-mqtt-gpio has no --list-lines in this build: the save cannot check lines (the next test covers what the page says then)',
    },
    async () => {
      await openPage();
      const before = readFileSync(rig.configFile('gpio'), 'utf8');
      await page.locator('.ch-add select').selectOption({ label: 'New channel: Custom GPIO' });
      await page.locator('.ch-add button').click();
      const detail = page.locator('li.channel').last();
      await detail.locator('[data-path$=".name"] input').fill('far_away');
      await detail.locator('[data-path$=".gpio.chip"] input').fill('/dev/gpiochip0');
      await detail.locator('[data-path$=".gpio.offset"] input').fill('40');
      await page.locator('#save').click();
      await page.waitForSelector('#problems:not([hidden])');
      assert.match(await page.locator('#problems-title').innerText(), /^Not saved: the console's check against this controller's hardware/);
      // The list of problems shows before the notes beside the fields are filled in: wait for the note.
      const note = detail.locator('[data-path$=".gpio.offset"] .field-problem');
      await eventually('the note beside the offset', async () => ((await note.innerText()) === '' ? undefined : true), 10_000);
      assert.match(await note.innerText(), /has 32 lines .*there is no line 40/);
      assert.equal(await detail.locator('[data-path$=".gpio.offset"] input').getAttribute('aria-invalid'), 'true');
      assert.equal(readFileSync(rig.configFile('gpio'), 'utf8'), before);
    },
  );

  test(
    "the line picker offers only free lines: another channel's line is shown with its name and row, not selectable",
    { skip: listsLines() ? false : 'ctl-mqtt-gpio has no --list-lines in this build: no picker' },
    async () => {
      await openPage();
      await page.locator('.ch-add select').selectOption({ label: 'New channel: Custom GPIO' });
      await page.locator('.ch-add button').click();
      const picker = page.locator('li.channel').last().locator('select[aria-label="Pick a free line of this controller…"]');
      await picker.waitFor();
      const options = await picker.locator('option').evaluateAll((nodes) =>
        nodes.map((n) => ({
          value: (n as unknown as { value: string }).value,
          text: n.textContent ?? '',
          disabled: (n as unknown as { disabled: boolean }).disabled,
        })),
      );
      // `door` (row 11) has /dev/gpiochip0 line 16.
      const door = options.filter((o) => /gpiochip0#16$/.test(o.value));
      assert.equal(door.length, 1, JSON.stringify(options.slice(0, 3)));
      assert.match(door[0]!.text, /^16.* \(used by channel "door(_contact)?" \(row 11\)\)$/);
      assert.equal(door[0]!.disabled, true);
      const free = options.filter((o) => o.value !== '' && !o.disabled);
      assert.ok(free.length > 0, 'some lines are free');
      for (const o of free) assert.doesNotMatch(o.text, /used by/, o.text);
    },
  );

  test('a channel on a chip the controller does not have: refused at its field, or reported in red after the apply, never "Saved" in green', async () => {
    confirmAnswer = true;
    await openPage();
    await page.locator('.ch-add select').selectOption({ label: 'New channel: Custom GPIO' });
    await page.locator('.ch-add button').click();
    const detail = page.locator('li.channel').last();
    await detail.locator('[data-path$=".name"] input').fill('nowhere');
    await detail.locator('[data-path$=".gpio.chip"] input').fill('/dev/gpiochip9');
    await detail.locator('[data-path$=".gpio.offset"] input').fill('3');
    await page.locator('#save').click();
    const outcome = await eventually(
      'a verdict',
      async () => {
        if (await page.locator('#problems:not([hidden])').count()) return 'refused';
        const text = await page.locator('#result').innerText();
        return /report an error|reports an error/.test(text) ? 'reported' : undefined;
      },
      30_000,
    );
    if (outcome === 'refused') {
      // The console's check refused it, not the service: the headline says whose check it was.
      assert.match(await page.locator('#problems-title').innerText(), /the console's check against this controller's hardware/);
      await pageShows(
        page,
        'li.channel[data-name="nowhere"] [data-path$=".gpio.chip"] .field-problem',
        /no GPIO chip \/dev\/gpiochip9/,
        10_000,
      );
    } else {
      assert.equal(await page.locator('#result').getAttribute('class'), 'result bad');
      assert.match(await page.locator('#after li[data-channel="nowhere"]').innerText(), /cannot be read/);
      // Take it out again for the tests after this one.
      await page.locator(`${row('nowhere')} .ch-open`).click();
      await page.locator(`${row('nowhere')} button.danger`).click();
      await page.locator('#save').click();
      await until(page, '#result', /^Saved; ctl-mqtt-gpio applied it\./);
    }
  });

  test('what the service refuses is shown in its words beside the field; the file stays as it was', async () => {
    await openPage();
    const before = readFileSync(rig.configFile('gpio'), 'utf8');
    await page.locator(`${row('relay1')} .ch-open`).click();
    // Two channels with one name: only the service's -J knows.
    await page.locator(channelField('relay1', 'name')).fill('door_contact');
    await page.locator('#save').click();
    await page.waitForSelector('#problems:not([hidden])');
    const problems = await page.locator('#problems').innerText();
    assert.match(problems, /ctl-mqtt-gpio refused the configuration \(the file is unchanged\)/);
    assert.match(problems, /door_contact/);
    // The channels are named as a person sees them, rows counted from 1, never `channels[10]`.
    assert.match(problems, /door_contact \(row \d+\) · Name: duplicate name: already used by channel "door_contact" \(row \d+\)/);
    assert.doesNotMatch(problems, /channels\[\d+\]/);
    assert.doesNotMatch(problems, /exactly one of|must validate/);
    assert.ok((await page.locator('.field-problem:not([hidden])').count()) >= 1, 'the problem is shown beside a field');
    if (SCREENSHOTS) {
      await page.locator('.field-problem:not([hidden])').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, 'console-config-problem.png') });
    }
    // A number field takes numbers: what is not one is said at once and nothing is sent.
    await openChannel(page, 'li.channel[data-index="10"]');
    const offset = page.locator('li.channel[data-index="10"] [data-path$=".gpio.offset"] input');
    await offset.fill('1x');
    assert.match(await page.locator('li.channel[data-index="10"] [data-path$=".gpio.offset"] .field-problem').innerText(), /whole number/);
    await page.locator('#save').click();
    await until(page, '#problems-title', /some fields need a fix/);
    assert.equal(readFileSync(rig.configFile('gpio'), 'utf8'), before);
  });

  test('an earlier version is put back from the page: checked, applied, and kept as the newest', async () => {
    confirmAnswer = true;
    await openPage();
    await page.locator('#versions-button').click();
    await page.waitForSelector('#versions li[data-version]');
    const versions = await page.locator('#versions li[data-version]').count();
    assert.ok(versions >= 2, `the first save kept the file before it and after it (${versions})`);
    // The oldest: the example config as the rig started (door, not door_contact).
    await page.locator('#versions li[data-version]').last().locator('button').click();
    await until(page, '#result', /is back/);
    assert.doesNotMatch(await page.locator('#result').innerText(), /error/);
    // The kept text itself, comments and all.
    const restored = readFileSync(rig.configFile('gpio'), 'utf8');
    assert.match(restored, /^\/\/ Example \/etc\/ctl-mqtt-gpio.conf/);
    assert.match(restored, /"name": "door"/);
    assert.doesNotMatch(restored, /door_contact/);
    await eventually(
      'door published again',
      () =>
        rig.console.feed
          .snapshot()
          .devices.find((d) => d.id === 'ctl-gpio')
          ?.controls.some((c) => c.name === 'door')
          ? true
          : undefined,
      20_000,
    );
    await page.waitForSelector('#versions li[data-version] .current');
    assert.equal(
      await page.locator('#versions li[data-version]').first().locator('.current').count(),
      1,
      'the restored content is the newest version',
    );
  });

  test('unsaved changes: a link of the page asks first, and staying keeps the edit', async () => {
    await openPage();
    await page.locator('[data-path="device_name"] input').fill('Not saved yet');
    confirmAnswer = false;
    dialogs.length = 0;
    await page.locator('#nav a[href="/"]').click();
    assert.match(dialogs[0] ?? '', /unsaved changes/);
    assert.match(page.url(), /\/config\/ctl-mqtt-gpio$/);
    assert.equal(await page.locator('[data-path="device_name"] input').inputValue(), 'Not saved yet');
    confirmAnswer = true;
    await page.locator('#nav a[href="/"]').click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  test('in a Russian browser the labels, help and buttons are Russian', async () => {
    const p = await browser.context.newPage();
    try {
      await p.addInitScript(() =>
        Object.defineProperty((globalThis as unknown as { navigator: object }).navigator, 'language', { get: () => 'ru-RU' }),
      );
      await openPage(p);
      assert.equal(await p.locator('#save').innerText(), 'Сохранить и применить');
      assert.equal(await p.locator('[data-path="device_name"] label').innerText(), 'Имя устройства в MQTT');
      await p.locator(`${row('relay1')} .ch-open`).click();
      assert.equal(await p.locator(`${row('relay1')} [data-path$=".name"] label`).innerText(), 'Имя');
    } finally {
      await p.close();
    }
  });

  test('in a Russian browser what the service refuses is said in Russian beside the field, the file unchanged', async () => {
    const p = await browser.context.newPage();
    p.on('dialog', (d) => void d.accept());
    try {
      await p.addInitScript(() =>
        Object.defineProperty((globalThis as unknown as { navigator: object }).navigator, 'language', { get: () => 'ru-RU' }),
      );
      await openPage(p);
      const before = readFileSync(rig.configFile('gpio'), 'utf8');
      // A new channel on the line `door` already has (offset 16): only the service's -J knows.
      await p.locator('.ch-add select').selectOption({ label: 'Новый канал: Пользовательский GPIO' });
      await p.locator('.ch-add button').click();
      const detail = p.locator('li.channel').last();
      await detail.locator('[data-path$=".name"] input').fill('second_door');
      await detail.locator('[data-path$=".gpio.chip"] input').fill('/dev/gpiochip0');
      await detail.locator('[data-path$=".gpio.offset"] input').fill('16');
      await p.locator('#save').click();
      await p.waitForSelector('#problems:not([hidden])');
      const note = detail.locator('[data-path$=".gpio"] > .field-problem');
      await eventually('the note beside the line', async () => ((await note.innerText()) === '' ? undefined : true), 10_000);
      assert.match(await note.innerText(), /^линия уже занята каналом «door(_contact)?» \(указано: \/dev\/gpiochip0, линия 16\)$/);
      // The new channel is the last row, counted from 1.
      const rows = await p.locator('li.channel').count();
      assert.match(
        await p.locator('#problems-list').innerText(),
        new RegExp(`^second_door \\(строка ${rows}\\) · Линия GPIO: линия уже занята каналом «door`, 'm'),
      );
      assert.equal(readFileSync(rig.configFile('gpio'), 'utf8'), before);
    } finally {
      await p.close({ runBeforeUnload: false });
    }
  });

  test('two pages editing one configuration: the second save is refused and keeps its edit', async () => {
    const first = await browser.context.newPage();
    const second = await browser.context.newPage();
    try {
      for (const p of [first, second]) await openPage(p);
      const deviceName = '[data-path="device_name"] input';
      await first.locator(deviceName).fill('Saved first');
      await first.locator('#save').click();
      await until(first, '#result', /^Saved/);
      await second.locator(deviceName).fill('Saved second');
      await second.locator('#save').click();
      await second.waitForSelector('#problems:not([hidden])');
      assert.match(await second.locator('#problems').innerText(), /was changed \(by another page, or by hand\) since this page loaded it/);
      assert.equal(await second.locator(deviceName).inputValue(), 'Saved second', 'the edit is still in the form');
      assert.match(readFileSync(rig.configFile('gpio'), 'utf8'), /"device_name": "Saved first"/);
    } finally {
      confirmAnswer = true;
      await first.close();
      await second.close();
    }
  });

  test('a save refused because the session ended keeps the edit: it is back in the form after the login', async () => {
    const secured = await rig.startConsole(await hashPassword('correct horse'));
    await browser.context.clearCookies();
    const p = await browser.context.newPage();
    p.on('dialog', (d) => void d.accept());
    try {
      await p.goto(`${secured.url}${GPIO_PAGE}`);
      await p.fill('#password', 'correct horse');
      await p.click('button[type=submit]');
      await p.waitForSelector('body[data-ready="1"]');
      const deviceName = '[data-path="device_name"] input';
      await p.locator(deviceName).fill('Edited before the logout');
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

  test('markup typed in a channel name is shown as text and fetches nothing', async () => {
    const requests: string[] = [];
    const other: Server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.end('x');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    const p = await browser.context.newPage();
    try {
      await openPage(p);
      await p.locator(`${row('relay1')} .ch-open`).click();
      const evil = `<img src=http://127.0.0.1:${(other.address() as { port: number }).port}/x>`;
      await p.locator(channelField('relay1', 'name')).fill(evil);
      await until(p, 'li.channel[data-name="relay1"] .ch-name', evil);
      assert.equal(await p.locator('#form img').count(), 0);
      assert.equal(await p.evaluate(async () => (await fetch('/api/session')).status), 200);
      assert.deepEqual(requests, []);
    } finally {
      p.on('dialog', (d) => void d.accept());
      await p.close({ runBeforeUnload: false });
      other.close();
    }
  });
});
