/** The host's command line (cli/host/host-args.ts) and what --defaults adds (service-plans.ts). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseHostArgs } from '../../../../src/cli/host/host-args.js';
import { plansOf } from '../../../../src/cli/host/service-plans.js';
import { isCtlError } from '../../../../src/core/errors.js';

test('each section holds its service own words, up to the next section', () => {
  assert.deepEqual(parseHostArgs(['--gpio', '-c', 'g.conf', '-d', '-1', '--adc', '--console', '--port', '8081']), {
    mode: 'run',
    defaultsDir: null,
    generateBoards: false,
    sections: [
      { kind: 'gpio', argv: ['-c', 'g.conf', '-d', '-1'] },
      { kind: 'adc', argv: [] },
      { kind: 'console', argv: ['--port', '8081'] },
    ],
  });
  assert.deepEqual(parseHostArgs(['--defaults', '/etc/default', '--generate-boards']), {
    mode: 'run',
    defaultsDir: '/etc/default',
    generateBoards: true,
    sections: [],
  });
  assert.deepEqual(parseHostArgs(['--help']), { mode: 'help' });
  assert.deepEqual(parseHostArgs(['--version']), { mode: 'version' });
});

test('mistakes are one usage line each', () => {
  for (const [argv, message] of [
    [[], /no service to run/],
    [['--gpio', '--gpio'], /--gpio given twice/],
    [['--broker', 'x', '--gpio'], /unknown option --broker \(the services' options go after --gpio, --adc or --console\)/],
    [['--defaults'], /--defaults needs a directory/],
  ] as const) {
    assert.throws(
      () => parseHostArgs(argv),
      (err: unknown) => isCtlError(err) && err.code === 'USAGE' && message.test(err.message),
      argv.join(' '),
    );
  }
});

test('--defaults: the services CTL_MQTT_SERVICES names, each with its own options and environment', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-host-defaults-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = { PATH: '/usr/bin', CTL_MQTT_PASSWORD: 'from-the-process' };
  // No files at all: every service, with the process's environment.
  assert.deepEqual(
    plansOf([], dir, env).plans.map((p) => [p.kind, p.argv, p.env]),
    [
      ['gpio', [], env],
      ['adc', [], env],
      ['console', [], env],
    ],
  );
  writeFileSync(join(dir, 'ctl-mqtt'), 'CTL_MQTT_SERVICES="ctl-mqtt-gpio console ftp"\n');
  writeFileSync(join(dir, 'ctl-mqtt-gpio'), 'CTL_MQTT_OPTS="--ha-discovery -T site7"\nCTL_MQTT_PASSWORD=gpio-secret\n');
  writeFileSync(join(dir, 'ctl-mqtt-console'), 'CTL_MQTT_OPTS=--listen 0.0.0.0\n');
  const { plans, problems } = plansOf([], dir, env);
  assert.deepEqual(
    plans.map((p) => [p.kind, p.argv, p.env['CTL_MQTT_PASSWORD'], p.env['CTL_MQTT_OPTS']]),
    [
      ['gpio', ['--ha-discovery', '-T', 'site7'], 'gpio-secret', undefined],
      ['console', ['--listen', '0.0.0.0'], 'from-the-process', undefined],
    ],
  );
  assert.deepEqual(problems, [`${join(dir, 'ctl-mqtt')}: CTL_MQTT_SERVICES: no service "ftp" (gpio, adc, console); ignored`]);
  // systemd's EnvironmentFile= (or a drop-in) sets CTL_MQTT_SERVICES: the environment wins over the file.
  assert.deepEqual(
    plansOf([], dir, { ...env, CTL_MQTT_SERVICES: 'adc' }).plans.map((p) => p.kind),
    ['adc'],
  );
  // One process, three state directories: each service its own.
  const stateDirs = { ...env, STATE_DIRECTORY: '/var/lib/ctl-mqtt-gpio:/var/lib/ctl-mqtt-adc:/var/lib/ctl-mqtt-console' };
  assert.deepEqual(
    plansOf([], dir, stateDirs).plans.map((p) => p.env['STATE_DIRECTORY']),
    ['/var/lib/ctl-mqtt-gpio', '/var/lib/ctl-mqtt-console'],
  );
  // Sections given: those services, their words first, then the file's.
  const given = plansOf([{ kind: 'gpio', argv: ['-c', 'x.conf'] }], dir, env).plans;
  assert.deepEqual(
    given.map((p) => p.argv),
    [['-c', 'x.conf', '--ha-discovery', '-T', 'site7']],
  );
  // Without --defaults: the sections as given, the process's environment.
  assert.deepEqual(plansOf([{ kind: 'adc', argv: ['-p', '1884'] }], null, env).plans, [{ kind: 'adc', argv: ['-p', '1884'], env }]);
});
