/** The host reading the services' /etc/default files (cli/host/env-file.ts; the format: core/environment-file.ts). */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readEnvFile, wordsOf } from '../../../../src/cli/host/env-file.js';
import { environmentFileValues } from '../../../../src/core/environment-file.js';

test('a file of variables as systemd reads it; a missing one has none; an unreadable one is one problem line', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-env-file-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'ctl-mqtt-gpio');
  writeFileSync(file, '# options\nCTL_MQTT_OPTS="--ha-discovery -T site7"\nCTL_MQTT_PASSWORD=\'s3cret "x"\'\n');
  const read = readEnvFile(file);
  assert.deepEqual(
    [...read.vars],
    [
      ['CTL_MQTT_OPTS', '--ha-discovery -T site7'],
      ['CTL_MQTT_PASSWORD', 's3cret "x"'],
    ],
  );
  assert.deepEqual(read.problems, []);
  assert.deepEqual(readEnvFile(join(dir, 'none')), { vars: new Map(), problems: [] });
  if (process.getuid?.() !== 0) {
    chmodSync(file, 0o000);
    assert.match(readEnvFile(file).problems[0]!, /ctl-mqtt-gpio: cannot read: /);
  }
});

test("the packaged defaults files set no variable but the console's trust in the homeui gate's proxy", () => {
  const setIn = (name: string) => [
    ...environmentFileValues(readFileSync(new URL(`../../../../../packaging/etc/default/${name}`, import.meta.url), 'utf8')),
  ];
  for (const name of ['ctl-mqtt-gpio', 'ctl-mqtt-adc', 'ctl-mqtt']) assert.deepEqual(setIn(name), [], name);
  assert.deepEqual(setIn('ctl-mqtt-console'), [['CTL_MQTT_OPTS', '--trusted-proxy 127.0.0.1']]);
});

test('$VAR unquoted on a command line: words split at white space', () => {
  assert.deepEqual(wordsOf('  --ha-discovery\t-T  site7 '), ['--ha-discovery', '-T', 'site7']);
  assert.deepEqual(wordsOf(undefined), []);
  assert.deepEqual(wordsOf(''), []);
});
