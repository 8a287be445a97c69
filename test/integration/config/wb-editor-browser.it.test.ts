/**
 * The shipped schemas rendered by the real form library (@json-editor/json-editor, the upstream of
 * the fork Wiren Board's web UI uses) in headless Chromium, read as wb-mqtt-confed hands them over
 * (`_format` becomes `format`). The editor starts from what `-j` gives; the test clicks "add",
 * fills in the new channel's required fields, ticks a system output's checkboxes, and sends the
 * editor's value through the real `-J` of the binary: it must be accepted (exit 0).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, skipWithoutChromium, type TestBrowser } from '../../helpers/browser.js';
import { waitUntil } from '../../helpers/wait-until.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const LIBRARY = join(ROOT, 'node_modules/@json-editor/json-editor/dist/jsoneditor.js');

/** The schema as wb-mqtt-confed sends it to the web UI: every `_format` read as `format`. */
function asConfedSends(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asConfedSends);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k === '_format' ? 'format' : k, asConfedSends(v)]));
}
const schemaOf = (binary: string) => asConfedSends(JSON.parse(readFileSync(join(ROOT, `schemas/${binary}.schema.json`), 'utf8')));

/** `-J` of the built binary, as a separate process, with an empty board directory. */
function fromJson(driver: 'gpio' | 'adc', value: unknown): { code: number | null; stdout: string; stderr: string } {
  const boardDir = mkdtempSync(join(tmpdir(), 'ctl-editor-board-'));
  try {
    const r = spawnSync(process.execPath, [join(ROOT, `dist/src/cli/${driver}-main.js`), '-J', '--system-config-dir', boardDir], {
      input: JSON.stringify(value),
      encoding: 'utf8',
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(boardDir, { recursive: true, force: true });
  }
}

/**
 * Wiren Board's web UI adds one widget to the library that these schemas use: `merge-default`, an
 * object whose `default` is laid under the value it is given (so its fields show their defaults)
 * and taken out of the value it returns. This is that behaviour, written for the test.
 */
const MERGE_DEFAULT = `
  JSONEditor.defaults.editors['merge-default'] = class extends JSONEditor.defaults.editors.object {
    setValue(value, initial) { super.setValue(Object.assign({}, this.getDefault(), value), initial); }
    getValue() {
      const value = super.getValue();
      const defaults = this.getDefault() || {};
      if (value) for (const [k, v] of Object.entries(defaults)) if (value[k] === v) delete value[k];
      return value;
    }
  };
  JSONEditor.defaults.resolvers.unshift((s) => s.type === 'object' && s.format === 'merge-default' && 'merge-default');
`;

async function openEditor(page: Page, schema: unknown, startval: unknown): Promise<void> {
  await page.setContent('<!doctype html><html><body><div id="editor"></div></body></html>');
  await page.addScriptTag({ path: LIBRARY });
  await page.addScriptTag({ content: MERGE_DEFAULT });
  await page.evaluate(
    ([s, v]) =>
      new Promise<void>((resolve) => {
        const w = globalThis as unknown as {
          JSONEditor: new (el: unknown, o: object) => { on(e: string, f: () => void): void };
          ed: unknown;
          document: { getElementById(id: string): unknown };
        };
        const ed = new w.JSONEditor(w.document.getElementById('editor'), { schema: s, startval: v });
        w.ed = ed;
        ed.on('ready', () => resolve());
      }),
    [schema, startval] as const,
  );
}

/** What the page's editor holds: its value, its validation errors, and facts about one list. */
async function editorState(page: Page, listPath: string) {
  return page.evaluate((path) => {
    type Ed = {
      getValue(): unknown;
      validate(): { path: string; message: string }[];
      getEditor(
        p: string,
      ): { rows: { type: number; editors: ({ schema: { format?: string } } | false)[] }[]; tabs_holder?: unknown } | null;
    };
    const ed = (globalThis as unknown as { ed: Ed }).ed;
    const list = ed.getEditor(path)!;
    return {
      value: ed.getValue(),
      errors: ed.validate().map((e) => `${e.path}: ${e.message}`),
      rowTypes: list.rows.map((r) => r.type),
      rowFormats: list.rows.map((r) => (r.editors[r.type] as { schema: { format?: string } }).schema.format ?? null),
      tabs: Boolean(list.tabs_holder),
    };
  }, listPath);
}

/** Clicks the tab of a row of a list shown as tabs. */
async function clickTab(page: Page, list: string, row: number): Promise<void> {
  const handle = await page.evaluateHandle(
    ([l, r]) => (globalThis as unknown as { ed: { getEditor(p: string): { rows: { tab: unknown }[] } } }).ed.getEditor(l).rows[r]!.tab,
    [list, row] as const,
  );
  // The unstyled page lays the tab list under the open tab's panel: a click event, not a pointer click.
  await handle.asElement()!.dispatchEvent('click');
}

/** Clicks the list's own "add" button (each variant editor has hidden ones of its own). */
async function clickAdd(page: Page, list: string): Promise<void> {
  const handle = await page.evaluateHandle(
    (p) => (globalThis as unknown as { ed: { getEditor(p: string): { add_row_button: unknown } } }).ed.getEditor(p).add_row_button,
    list,
  );
  await handle.asElement()!.click();
}

/** Buttons of a kind that a user can see. */
const visibleCount = (page: Page, css: string) => page.locator(`${css}:visible`).count();

/**
 * The input element of a channel's field (`keys` into row `row` of the list), for real clicks and
 * typing. The editors are walked as built: a oneOf field's current variant, then the property.
 */
async function inputOf(page: Page, list: string, row: number, keys: string[]) {
  const handle = await page.evaluateHandle(
    ([l, r, ks]) => {
      type Ed = { rows?: Ed[]; type?: number; editors?: Ed[] | Record<string, Ed>; input?: unknown };
      const ed = (globalThis as unknown as { ed: { getEditor(p: string): Ed } }).ed;
      const variant = (e: Ed): Ed => (Array.isArray(e.editors) && typeof e.type === 'number' ? variant(e.editors[e.type]!) : e);
      let field: Ed | undefined = variant(ed.getEditor(l).rows![r]!);
      for (const k of ks) field = field && (field.editors as Record<string, Ed>)[k] && variant((field.editors as Record<string, Ed>)[k]!);
      if (!field?.input) throw new Error(`no input for ${l}.${r}.${ks.join('.')}`);
      return field.input;
    },
    [list, row, keys] as const,
  );
  const element = handle.asElement();
  assert.ok(element, keys.join('.'));
  return element;
}

/** Types into a text field as a user does: the form library takes the value on `change`. */
async function typeInto(page: Page, list: string, row: number, keys: string[], text: string): Promise<void> {
  const input = await inputOf(page, list, row, keys);
  await input.fill(text);
  await input.dispatchEvent('change');
}

if (skipWithoutChromium) console.log(`# ${skipWithoutChromium}`);

describe('the shipped schemas in the form library, saved through -J', { skip: skipWithoutChromium }, () => {
  let browser: TestBrowser;
  let page: Page;
  before(async () => {
    browser = await launchBrowser();
    page = await browser.context.newPage();
  });
  after(async () => browser?.close());

  test('GPIO: system channels stay system ones, "add" gives a custom GPIO, outputs tick, and -J takes the result', async () => {
    const startval = {
      device_name: 'GPIOs',
      max_unchanged_interval: -1,
      channels: [
        { name: 'A1_IN', direction: 'input' },
        { name: 'A1_OUT', direction: 'output' },
      ],
    };
    await openEditor(page, schemaOf('ctl-mqtt-gpio'), startval);
    const start = await editorState(page, 'root.channels');
    assert.deepEqual(start.rowTypes, [1, 2], 'A1_IN is a system input, A1_OUT a system output');
    assert.deepEqual(start.rowFormats.slice(1), ['merge-default'], 'the system output merges its defaults');

    // The output's start-up settings are checkboxes showing their defaults; tick both.
    const initial = await inputOf(page, 'root.channels', 1, ['initial_state']);
    const previous = await inputOf(page, 'root.channels', 1, ['load_previous_state']);
    assert.deepEqual([await initial.getAttribute('type'), await previous.getAttribute('type')], ['checkbox', 'checkbox']);
    assert.deepEqual([await initial.isChecked(), await previous.isChecked()], [false, true]);
    await initial.click();
    await previous.click();

    // No reordering, no delete-all, no delete-last, no JSON editing.
    for (const css of [
      '.json-editor-btntype-move',
      '.json-editor-btntype-deleteall',
      '.json-editor-btntype-deletelast',
      '.json-editor-btntype-editjson',
    ]) {
      assert.equal(await visibleCount(page, css), 0, css);
    }

    await clickAdd(page, 'root.channels');
    const added = await editorState(page, 'root.channels');
    assert.deepEqual(added.rowTypes, [1, 2, 0], 'the new channel is a custom GPIO');
    await typeInto(page, 'root.channels', 2, ['name'], 'relay');
    await typeInto(page, 'root.channels', 2, ['gpio', 'chip'], '/dev/gpiochip0');
    await typeInto(page, 'root.channels', 2, ['gpio', 'offset'], '7');

    const saved = await settledState(page, 'root.channels');
    assert.deepEqual(saved.errors, [], 'the editor would let the user save');
    const channels = (saved.value as { channels: Record<string, unknown>[] }).channels;
    assert.deepEqual([channels[1]!.initial_state, channels[1]!.load_previous_state], [true, false]);
    const r = fromJson('gpio', saved.value);
    assert.equal(r.code, 0, `-J refused what the editor saves: ${r.stderr}\n${JSON.stringify(saved.value)}`);
    const written = JSON.parse(r.stdout) as { channels: Record<string, unknown>[] };
    assert.deepEqual(written.channels.find((c) => c.name === 'relay')?.gpio, { chip: '/dev/gpiochip0', offset: 7 });
    assert.deepEqual(
      written.channels.find((c) => c.name === 'A1_OUT'),
      { name: 'A1_OUT', initial_state: true, load_previous_state: false },
    );
  });

  test('ADC: channels as tabs, "add" gives a custom channel, and -J takes the result', async () => {
    const startval = {
      device_name: 'ADCs',
      max_unchanged_interval: 60,
      iio_channels: [{ id: 'Vin', decimal_places: 2 }, { id: 'A1' }],
    };
    await openEditor(page, schemaOf('ctl-mqtt-adc'), startval);
    const start = await editorState(page, 'root.iio_channels');
    assert.equal(start.tabs, true, 'the channels are tabs');
    assert.deepEqual(start.rowTypes, [1, 1], 'Vin and A1 are system channels');
    assert.deepEqual(start.rowFormats, ['merge-default', 'merge-default']);
    assert.deepEqual(start.errors, []);
    for (const css of [
      '.json-editor-btntype-move',
      '.json-editor-btntype-deleteall',
      '.json-editor-btntype-deletelast',
      '.json-editor-btntype-editjson',
    ]) {
      assert.equal(await visibleCount(page, css), 0, css);
    }

    await clickAdd(page, 'root.iio_channels');
    const added = await editorState(page, 'root.iio_channels');
    assert.deepEqual(added.rowTypes, [1, 1, 0], 'the new channel is a custom channel');
    await typeInto(page, 'root.iio_channels', 2, ['id'], 'pressure');
    await typeInto(page, 'root.iio_channels', 2, ['channel_number'], 'voltage5');
    await clickTab(page, 'root.iio_channels', 1);
    await typeInto(page, 'root.iio_channels', 1, ['averaging_window'], '4');

    const saved = await settledState(page, 'root.iio_channels');
    assert.deepEqual(saved.errors, [], 'the editor would let the user save');
    const r = fromJson('adc', saved.value);
    assert.equal(r.code, 0, `-J refused what the editor saves: ${r.stderr}\n${JSON.stringify(saved.value)}`);
    const written = JSON.parse(r.stdout) as { iio_channels: Record<string, unknown>[] };
    const custom = written.iio_channels.find((c) => c.id === 'pressure');
    assert.equal(custom?.channel_number, 'voltage5');
    assert.equal(custom?.voltage_multiplier, 1);
    assert.deepEqual(
      written.iio_channels.find((c) => c.id === 'A1'),
      { id: 'A1', averaging_window: 4 },
    );
  });
});

/**
 * The editor's state once it has taken what was typed: it validates a moment after the input
 * events, so a state read at once may still hold the errors of the half-filled channel. Waits up
 * to 10 s for a state without errors, then gives the last one read (whose errors the test shows).
 */
async function settledState(page: Page, path: string): Promise<Awaited<ReturnType<typeof editorState>>> {
  let last = await editorState(page, path);
  await waitUntil(async () => (last = await editorState(page, path)).errors.length === 0, 'a state without errors', {
    timeoutMs: 10_000,
    intervalMs: 50,
  }).catch(() => {}); // the caller shows the errors of the last state read
  return last;
}
