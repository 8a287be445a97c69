/**
 * Two services with one client id (a second copy run by hand beside the unit, a config copied to
 * another controller) take the broker session from each other. Each takeover must be one clear
 * error line naming the client id and the likely cause, and the service must back off with a
 * growing delay instead of taking the session back at once: a few takeovers in 30 s, not a loop.
 * Counted in mosquitto's own log ("already connected, closing old connection").
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { mosquittoAvailable, startMosquitto } from '../../helpers/mosquitto.js';
import { spawnNode } from '../../helpers/spawned.js';

const GPIO_MAIN = fileURLToPath(new URL('../../../src/cli/gpio-main.js', import.meta.url));
const WINDOW_MS = 30_000;
/** With a delay that starts at several seconds and doubles, far fewer than the 8 of a tight loop. */
const MOST_TAKEOVERS = 4;

test(`two services with one client id: each takeover is one error line, and they back off (at most ${MOST_TAKEOVERS} takeovers in ${WINDOW_MS / 1000} s)`, {
  skip: mosquittoAvailable() ? false : 'mosquitto is not installed',
  timeout: WINDOW_MS + 60_000,
}, async (t) => {
  const broker = await startMosquitto();
  const dir = mkdtempSync(join(tmpdir(), 'ctl-takeover-'));
  t.after(async () => {
    await broker.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const config = join(dir, 'gpio.conf');
  writeFileSync(config, JSON.stringify({ device_name: 'Twin', channels: [] }));
  const start = (name: string) =>
    spawnNode(t, [
      GPIO_MAIN, '-c', config, '--system-config-dir', join(dir, 'board'), '--state-file', join(dir, `${name}.json`),
      '--gpio-sim', join(dir, 'sim'), '--broker', broker.url, '--device-id', 'twin', '--client-id', 'twin-client',
    ]);
  const first = start('first');
  const takeovers = () => broker.log().split('\n').filter((l) => /Client twin-client already connected, closing old connection/.test(l)).length;
  const until = Date.now() + 10_000;
  while (!/connected to/.test(first.stderr())) {
    assert.ok(Date.now() < until, `the first service did not connect:\n${first.stderr()}`);
    await sleep(20);
  }
  const second = start('second');
  await sleep(WINDOW_MS);
  const count = takeovers();
  const lines = (s: string) => s.split('\n').filter((l) => /taken over/.test(l));
  t.diagnostic(`${count} takeovers in ${WINDOW_MS / 1000} s`);
  t.diagnostic(`first: ${lines(first.stderr()).join(' | ')}`);
  assert.ok(count >= 1, 'the second service took the session');
  assert.ok(count <= MOST_TAKEOVERS, `${count} takeovers in ${WINDOW_MS / 1000} s:\n${broker.log().split('\n').filter((l) => /already connected/.test(l)).join('\n')}`);
  // Whoever lost the session said so, naming the client id and the likely cause, once per takeover.
  const said = [...lines(first.stderr()), ...lines(second.stderr())];
  assert.ok(said.length >= 1 && said.length <= count, `${said.length} lines for ${count} takeovers:\n${said.join('\n')}`);
  for (const line of said) {
    assert.match(line, /^ERROR: .*twin-client.*another client .*same client id/, line);
  }
  assert.equal(await first.stop(), 0, first.stderr());
  assert.equal(await second.stop(), 0, second.stderr());
});
