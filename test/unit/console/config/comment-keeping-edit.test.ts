/** A save edited into the file's own text (console/config/comment-keeping-edit.ts): comments and layout stay. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'jsonc-parser';
import { editedText } from '../../../../src/console/config/comment-keeping-edit.js';

const FILE = `// Guide: the board's channels come from conf.d.
{
  "device_name": "Discrete I/O", // shown in the UI
  "channels": [
    // The meter on A1.
    { "name": "A1_IN", "type": "watt_meter", "multiplier": 1000 },
    /* the door contact */
    { "name": "door", "gpio": 16, "direction": "input", },
  ],
}
`;
const value = (text: string): unknown => parse(text, [], { allowTrailingComma: true });
const comments = (text: string): string[] => text.match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g) ?? [];

test('a changed value is edited where it is: every comment and the rest of the text stay', () => {
  const next = structuredClone(value(FILE)) as { channels: { multiplier?: number }[] };
  next.channels[0]!.multiplier = 500;
  const text = editedText(FILE, next)!;
  assert.deepEqual(value(text), next);
  assert.deepEqual(comments(text), comments(FILE));
  assert.equal(text, FILE.replace('"multiplier": 1000', '"multiplier": 500'));
});

test('a channel added at the end, one taken out, a key removed: comments of the rest stay', () => {
  const base = value(FILE) as { device_name?: string; channels: object[] };
  const added = { ...base, channels: [...base.channels, { name: 'relay1', gpio: 17, direction: 'output' }] };
  const withNew = editedText(FILE, added)!;
  assert.deepEqual(value(withNew), added);
  assert.deepEqual(comments(withNew), comments(FILE));
  assert.ok(withNew.includes('{ "name": "door", "gpio": 16, "direction": "input", },'), `the item before stays as written:\n${withNew}`);

  const removed = { ...base, channels: [base.channels[1]!] };
  const withoutMeter = editedText(FILE, removed)!;
  assert.deepEqual(value(withoutMeter), removed);
  assert.ok(withoutMeter.includes('/* the door contact */') && withoutMeter.includes('// Guide'), withoutMeter);

  const { device_name: _gone, ...noName } = base;
  const withoutName = editedText(FILE, noName)!;
  assert.deepEqual(value(withoutName), noName);
  assert.ok(withoutName.startsWith('// Guide'));
});

test("nothing changed: the text as it was; a text that is not JSONC: undefined (the caller writes -J's)", () => {
  assert.equal(editedText(FILE, value(FILE)), FILE);
  assert.equal(editedText('{ "a": ', { a: 1 }), undefined);
});

test('the installed config with its guide comments takes a first channel and keeps the guide', () => {
  const installed = readFileSync(new URL('../../../../../packaging/etc/ctl-mqtt-gpio.conf', import.meta.url), 'utf8');
  const next = structuredClone(value(installed)) as { channels: object[] };
  next.channels.push({ name: 'door', gpio: { chip: '/dev/gpiochip0', offset: 16 }, direction: 'input' });
  const text = editedText(installed, next)!;
  assert.deepEqual(value(text), next);
  assert.deepEqual(comments(text), comments(installed));
});
