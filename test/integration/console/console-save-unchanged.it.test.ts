/**
 * The demo's own configurations saved back unchanged through the console's save route, over
 * plain HTTP: the console rig runs the example configs on the simulated board built from them
 * (sim GPIO chips, a fake IIO tree whose ADC matches the example's `match_iio`), so `-J` and the
 * hardware check must both accept them. A refusal here is the console contradicting the service
 * that runs the same file. A channel the controller does not have is refused by the console's
 * own check, and the answer says so (the page must not blame the service for it).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileVersion } from '../../../src/console/config/file-version.js';
import { SERVICE_FILES, type ServiceKind } from '../../../src/demo/demo-paths.js';
import { startConsoleRig, type ConsoleRig } from './console-rig.js';
import { http, session } from '../../helpers/console-http.js';

describe('the demo configs saved unchanged through the console', () => {
  let rig: ConsoleRig;
  let headers: Record<string, string>;

  before(async () => {
    rig = await startConsoleRig();
    const { cookie, csrf } = await session(rig.url);
    headers = { Cookie: cookie, 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' };
  });
  after(async () => {
    await rig?.close();
  });

  for (const kind of ['gpio', 'adc'] as const satisfies readonly ServiceKind[]) {
    const id = SERVICE_FILES[kind].binary;
    test(`${id}: the example config as loaded is saved and applied`, async () => {
      const loaded = await http(`${rig.url}api/config/${id}`, { headers });
      assert.equal(loaded.status, 200, loaded.body);
      const { config, version } = JSON.parse(loaded.body) as { config: unknown; version: string };
      const hardware = JSON.parse((await http(`${rig.url}api/config/${id}/hardware`, { headers })).body) as { available: boolean };
      assert.equal(hardware.available, true, 'the listing ran, so the hardware check is part of this save');
      const saved = await http(`${rig.url}api/config/${id}`, { method: 'POST', headers, body: JSON.stringify({ config, version }) });
      assert.equal(saved.status, 200, saved.body);
      const answer = JSON.parse(saved.body) as {
        saved: boolean;
        applied: boolean;
        unchanged?: boolean;
        hardwareUnchecked?: string;
        version: string;
      };
      assert.deepEqual([answer.saved, answer.applied, answer.hardwareUnchecked], [true, true, undefined]);
      assert.equal(answer.version, fileVersion(readFileSync(rig.configFile(kind))), 'the file holds what was saved');
      // Every comment of the file stays. GPIO: nothing changed, so the file is as it was and not
      // written again. ADC: -J writes an entry for each board channel (its decimal places), which
      // go in as lines of their own.
      const example = readFileSync(SERVICE_FILES[kind].config, 'utf8');
      const now = readFileSync(rig.configFile(kind), 'utf8');
      const comments = (text: string): string[] => text.match(/^\s*\/\/.*$/gm) ?? [];
      assert.deepEqual(comments(now), comments(example));
      if (kind === 'gpio') {
        assert.equal(answer.unchanged, true);
        assert.equal(now, example);
      }
    });

    test(`${id}: a save that changes one value keeps every comment of the file`, async () => {
      const loaded = JSON.parse((await http(`${rig.url}api/config/${id}`, { headers })).body) as {
        config: { device_name: string };
        version: string;
      };
      const before = readFileSync(rig.configFile(kind), 'utf8');
      const config = { ...loaded.config, device_name: `${loaded.config.device_name} (edited)` };
      const saved = await http(`${rig.url}api/config/${id}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ config, version: loaded.version }),
      });
      assert.equal(saved.status, 200, saved.body);
      const after = readFileSync(rig.configFile(kind), 'utf8');
      const comments = (text: string): string[] => text.match(/^\s*\/\/.*$/gm) ?? [];
      assert.ok(comments(before).length > 3, 'the example config has comments');
      assert.deepEqual(comments(after), comments(before));
      assert.equal(after, before.replace(`"${loaded.config.device_name}"`, `"${config.device_name}"`));
    });
  }

  /** Posts the ADC config as loaded plus `extra` channels; the index of the last channel sent. */
  const saveAdcWith = async (extra: object[]) => {
    const loaded = JSON.parse((await http(`${rig.url}api/config/ctl-mqtt-adc`, { headers })).body) as {
      config: { iio_channels: object[] };
      version: string;
    };
    const config = { ...loaded.config, iio_channels: [...loaded.config.iio_channels, ...extra] };
    const answer = await http(`${rig.url}api/config/ctl-mqtt-adc`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ config, version: loaded.version }),
    });
    return { answer, last: config.iio_channels.length - 1 };
  };
  const ELSEWHERE = { id: 'elsewhere', match_iio: 'i2c-7', channel_number: 'voltage0', voltage_multiplier: 1 };
  const noDevice = (at: number): string =>
    `iio_channels[${at}].match_iio: no IIO device of this controller matches i2c-7 (no iio:deviceN link target matches *i2c-7*)`;

  test("a channel on no device of the controller: refused by the console's check, the file unchanged", async () => {
    const before = readFileSync(rig.configFile('adc'));
    const { answer, last } = await saveAdcWith([ELSEWHERE]);
    assert.equal(answer.status, 422, answer.body);
    assert.deepEqual(JSON.parse(answer.body), { saved: false, refusedBy: 'hardware', problems: [noDevice(last)] });
    assert.deepEqual(readFileSync(rig.configFile('adc')), before);
  });

  test('a save both checks refuse: every problem of -J and of the hardware check in one answer', async () => {
    const before = readFileSync(rig.configFile('adc'));
    // -J refuses one id used twice; the console's check the channel on no device.
    const { answer, last } = await saveAdcWith([
      { id: 'twice', channel_number: 'voltage0', voltage_multiplier: 1 },
      { id: 'twice', channel_number: 'voltage1', voltage_multiplier: 1 },
      ELSEWHERE,
    ]);
    assert.equal(answer.status, 422, answer.body);
    const body = JSON.parse(answer.body) as { refusedBy: string; problems: string[] };
    assert.equal(body.refusedBy, 'both');
    assert.ok(
      body.problems.some((p) => p.startsWith(`iio_channels[${last - 1}].id`) && p.includes('twice')),
      `-J's problem: ${body.problems.join(' | ')}`,
    );
    assert.ok(body.problems.includes(noDevice(last)), `the hardware check's problem: ${body.problems.join(' | ')}`);
    assert.deepEqual(readFileSync(rig.configFile('adc')), before);
  });
});
