/**
 * packaging/wb-diag-collect/wb-diag-collect-config: the copy of Wiren Board's support-archive
 * configuration that the package's drop-in binds over the original, with ctl-mqtt's units and
 * configuration files added. Run with python3 and its YAML module, as wb-diag-collect itself runs;
 * the input is shaped like the configuration that tool's package installs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../../../packaging/wb-diag-collect/wb-diag-collect-config', import.meta.url));
const hasYaml = spawnSync('python3', ['-c', 'import yaml']).status === 0;
const skip = hasYaml ? false : 'python3 with its yaml module is not installed';

const ORIGINAL = `timeout: 10

mqtt:
    broker: 'unix:///var/run/mosquitto/mosquitto.sock'

journald_logs:
    lines_number: 5000

    names:
    - wb-*.service
    - mosquitto.service

commands:
    -
      filename: ps_aux
      command: ps aux

files:
    - /etc/wb-mqtt-gpio.conf
    - /var/log/nginx/*.log

filters:
    -
      glob: etc/mosquitto/conf.d/*.conf
      pattern: 'password\\s+.*'
      repl: 'password REMOVED_BY_DIAG_COLLECT'
`;

/** The YAML file read back as JSON, through the same python module wb-diag-collect reads it with. */
function readYaml(path: string): Record<string, unknown> {
  const r = spawnSync('python3', ['-c', 'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))', path], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

function setUp(t: { after(fn: () => void): void }, text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-diag-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const source = join(dir, 'wb-diag-collect.conf');
  writeFileSync(source, text);
  const output = join(dir, 'run/ctl-mqtt-diag/wb-diag-collect.conf');
  const run = () => spawnSync(SCRIPT, [source, output], { encoding: 'utf8' });
  return { source, output, run };
}

test("the copy adds ctl-mqtt's units and configuration files and keeps everything else", { skip }, (t) => {
  const { source, output, run } = setUp(t, ORIGINAL);
  const r = run();
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const original = readYaml(source);
  const copy = readYaml(output);
  const logs = copy.journald_logs as { names: string[]; lines_number: number };
  assert.deepEqual(logs.names, ['wb-*.service', 'mosquitto.service', 'ctl-mqtt*.service']);
  assert.deepEqual(copy.files, [
    '/etc/wb-mqtt-gpio.conf',
    '/var/log/nginx/*.log',
    '/etc/ctl-mqtt-gpio.conf',
    '/etc/ctl-mqtt-adc.conf',
    '/var/lib/ctl-mqtt-gpio/conf.d/*.conf',
    '/var/lib/ctl-mqtt-adc/conf.d/*.conf',
  ]);
  // The console's file holds a password hash: it is not collected.
  assert.ok(!(copy.files as string[]).some((f) => f.includes('console')));
  const rest = (c: Record<string, unknown>) => ({ ...c, files: undefined, journald_logs: undefined });
  assert.deepEqual(rest(copy), rest(original));
  assert.equal(logs.lines_number, 5000);
  assert.deepEqual(Object.keys(copy), Object.keys(original), 'the keys keep their order');
});

test('each start writes the copy afresh from the original: nothing is added twice', { skip }, (t) => {
  const { output, run } = setUp(t, ORIGINAL);
  assert.equal(run().status, 0);
  const first = readFileSync(output, 'utf8');
  assert.equal(run().status, 0);
  assert.equal(readFileSync(output, 'utf8'), first);
});

test('an original that already lists ctl-mqtt keeps one entry of each', { skip }, (t) => {
  const { output, run } = setUp(t, ORIGINAL.replace('    - mosquitto.service\n', '    - mosquitto.service\n    - ctl-mqtt*.service\n'));
  assert.equal(run().status, 0);
  const names = (readYaml(output).journald_logs as { names: string[] }).names;
  assert.deepEqual(names, ['wb-*.service', 'mosquitto.service', 'ctl-mqtt*.service']);
});

for (const [what, text] of [
  ['has no journald_logs section', ORIGINAL.replace(/journald_logs:[\s\S]*?commands:/, 'commands:')],
  ['is not YAML', 'journald_logs: [\n'],
  ['has names that are not a list', ORIGINAL.replace(/names:\n(\s+- .*\n)+/, 'names: wb-*.service\n')],
] as const) {
  test(`an original that ${what} leaves no copy: the archive is collected as without ctl-mqtt`, { skip }, (t) => {
    const { output, run } = setUp(t, text);
    const r = run();
    assert.equal(r.status, 1);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 2, r.stderr);
    assert.match(lines[0]!, /wb-diag-collect\.conf: /);
    assert.match(lines[1]!, /left as it is: ctl-mqtt's logs are not added to the archive/);
    assert.equal(existsSync(output), false);
    assert.equal(existsSync(`${output}.new`), false);
  });
}
