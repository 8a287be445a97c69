/** Reading a services' /etc/default file as systemd's EnvironmentFile= does (cli/host/env-file.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseEnvFile, wordsOf } from '../../../../src/cli/host/env-file.js';

test('KEY=VALUE lines, comments, quotes and continued lines, as systemd reads them', () => {
  const text = [
    '# a comment',
    '; another',
    '',
    '  CTL_MQTT_OPTS="--ha-discovery -T site7"  ',
    'CTL_MQTT_PASSWORD=\'s3cret "x"\'',
    'PLAIN = value with spaces   ',
    'ESCAPED="a \\"quoted\\" word \\\\ end"',
    'LONG="first \\',
    'second"',
    'not a line',
    'BROKEN="no end',
  ].join('\n');
  const { vars, problems } = parseEnvFile('/etc/default/x', text);
  assert.equal(vars.get('CTL_MQTT_OPTS'), '--ha-discovery -T site7');
  assert.equal(vars.get('CTL_MQTT_PASSWORD'), 's3cret "x"');
  assert.equal(vars.get('PLAIN'), 'value with spaces');
  assert.equal(vars.get('ESCAPED'), 'a "quoted" word \\ end');
  assert.equal(vars.get('LONG'), 'first second');
  assert.equal(vars.has('BROKEN'), false);
  assert.deepEqual(problems, ['/etc/default/x:10: not KEY=VALUE; ignored', '/etc/default/x:11: BROKEN: unterminated quote; ignored']);
});

test('the packaged defaults files have only comments: no variable, no problem', async () => {
  const { readFileSync } = await import('node:fs');
  for (const name of ['ctl-mqtt-gpio', 'ctl-mqtt-adc', 'ctl-mqtt-console', 'ctl-mqtt']) {
    const path = new URL(`../../../../../packaging/etc/default/${name}`, import.meta.url);
    const { vars, problems } = parseEnvFile(name, readFileSync(path, 'utf8'));
    assert.deepEqual([...vars], [], name);
    assert.deepEqual(problems, [], name);
  }
});

test('$VAR unquoted on a command line: words split at white space', () => {
  assert.deepEqual(wordsOf('  --ha-discovery\t-T  site7 '), ['--ha-discovery', '-T', 'site7']);
  assert.deepEqual(wordsOf(undefined), []);
  assert.deepEqual(wordsOf(''), []);
});
