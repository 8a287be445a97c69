/** The broker password without the command line: a file, the environment, a systemd credential. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { parseCliArgs } from '../../../src/cli/args.js';
import { resolveBroker } from '../../../src/mqtt/broker-options.js';
import { brokerOptionsFromCli } from '../../../src/service/broker-options-from-cli.js';
import { isCtlError } from '../../../src/core/errors.js';

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-password-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const passwordOf = (argv: string[], env: Record<string, string> = {}) => {
  const cli = parseCliArgs('gpio', argv);
  return resolveBroker(brokerOptionsFromCli(cli.broker, cli.clientId, env), 'ctl-gpio').clientOptions.password;
};

test('--password-file: the first line of the file, read at start', (t) => {
  const file = join(tempDir(t), 'pw');
  writeFileSync(file, 's3cret\n');
  assert.equal(passwordOf(['--password-file', file]), 's3cret');
  writeFileSync(file, 'two words\r\nsecond line\n');
  assert.equal(passwordOf(['--password-file', file]), 'two words');
  writeFileSync(file, '');
  assert.equal(passwordOf(['--password-file', file]), '');
});

test('-P and --password-file: the last one given wins, and both win over the environment', (t) => {
  const file = join(tempDir(t), 'pw');
  writeFileSync(file, 'from-file\n');
  const env = { CTL_MQTT_PASSWORD: 'from-env' };
  assert.equal(passwordOf(['-P', 'from-arg', '--password-file', file], env), 'from-file');
  assert.equal(passwordOf(['--password-file', file, '-P', 'from-arg'], env), 'from-arg');
  assert.equal(passwordOf([], env), 'from-env');
  assert.equal(passwordOf([], { CTL_MQTT_PASSWORD: '' }), '', 'an empty password is a password');
});

test('a systemd credential mqtt-password is used when nothing else gives one', (t) => {
  const dir = tempDir(t);
  assert.equal(passwordOf([], { CREDENTIALS_DIRECTORY: dir }), undefined, 'no such credential: no password');
  writeFileSync(join(dir, 'mqtt-password'), 'from-credential');
  assert.equal(passwordOf([], { CREDENTIALS_DIRECTORY: dir }), 'from-credential');
  assert.equal(passwordOf([], { CREDENTIALS_DIRECTORY: dir, CTL_MQTT_PASSWORD: 'from-env' }), 'from-env');
});

test('an unreadable password file is one line and exit 1 (RUNTIME)', (t) => {
  const file = join(tempDir(t), 'missing');
  assert.throws(
    () => passwordOf(['--password-file', file]),
    (e) => isCtlError(e, 'RUNTIME') && e.message.startsWith(`cannot read password file ${file}: `),
  );
});
