/**
 * CTL_MQTT_OPTS as the packaged units get it from /etc/default/<service>: systemd's
 * EnvironmentFile reading (comments, quotes, escapes, joined lines), then split at blanks as an
 * unbraced `$CTL_MQTT_OPTS` on a command line is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { environmentFileValues } from '../../../../src/core/environment-file.js';
import { serviceOptions } from '../../../../src/console/config/unit-options.js';

const PACKAGED = fileURLToPath(new URL('../../../../../packaging/etc/default/ctl-mqtt-adc', import.meta.url));

test('the packaged file sets nothing until its example line is uncommented', () => {
  const text = readFileSync(PACKAGED, 'utf8');
  assert.equal(environmentFileValues(text).has('CTL_MQTT_OPTS'), false);
  const edited = text.replace('#CTL_MQTT_OPTS="--ha-discovery -T site7"', 'CTL_MQTT_OPTS="--ha-discovery -T site7 --sysfs-root /srv/sys"');
  assert.equal(environmentFileValues(edited).get('CTL_MQTT_OPTS'), '--ha-discovery -T site7 --sysfs-root /srv/sys');
});

test('values are read as systemd reads an EnvironmentFile', () => {
  const values = environmentFileValues(
    [
      '# a comment with A=1',
      '; another B=2',
      '  PLAIN = a b   ',
      'SINGLE=\'a \\"b\\" $c\'',
      'DOUBLE="x \\"y\\" \\\\ \\$z \\n"',
      'MIXED="a" \'b\' c"d"',
      'JOINED=one \\',
      'two',
      'QUOTED_JOIN="three \\',
      'four"',
      'ESCAPED=\\ lead\\ing',
      'EMPTY=',
      'no assignment here',
      'TWICE=first',
      'TWICE=second',
      '9BAD=x',
    ].join('\n'),
  );
  assert.deepEqual(Object.fromEntries(values), {
    PLAIN: 'a b',
    SINGLE: 'a \\"b\\" $c',
    DOUBLE: 'x "y" \\ $z \\n',
    MIXED: 'abc"d"',
    JOINED: 'one two',
    QUOTED_JOIN: 'three four',
    ESCAPED: ' leading',
    EMPTY: '',
    TWICE: 'second',
  });
});

test('the words of CTL_MQTT_OPTS, or none without the file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-console-opts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'ctl-mqtt-adc');
  assert.deepEqual(await serviceOptions(file), []);
  writeFileSync(file, 'CTL_MQTT_OPTS="  --sysfs-root /srv/a\t-T site7  "\nCTL_MQTT_PASSWORD=secret\n');
  assert.deepEqual(await serviceOptions(file), ['--sysfs-root', '/srv/a', '-T', 'site7']);
  await assert.rejects(serviceOptions(dir), /^Error: cannot read .*ctl-console-opts-.*: EISDIR$/);
});
