/** `ctl-mqtt-gpio` refuses, before anything starts, a state file in a directory others can write. */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../config/config-rig.js';
import { runMain } from './cli-rig.js';
import { simGpioArgs } from '../../helpers/sim-gpio-args.js';

test('a world-writable state directory: exit 6, one line naming it', async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'gpio.conf');
  writeFileSync(config, JSON.stringify({ device_name: 'x', channels: [] }));
  const shared = join(dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  const stateFile = join(shared, 'state.json');
  // An unreachable broker: had the check not stopped it, the service would start and wait.
  const r = await runMain('gpio', [...simGpioArgs(dir, config, stateFile), '--broker', 'mqtt://127.0.0.1:1']);
  assert.equal(r.code, 6);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    `ctl-mqtt-gpio: --state-file ${stateFile}: its directory ${shared} is writable by every user (mode 1777); use a directory only root and the service's user can write\n`,
  );
});
