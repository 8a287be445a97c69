/**
 * The demo's web console runs where a controller runs it: inside the one `ctl-mqtt` process, as
 * its `--console` section. Seen from outside: who listens on the console's port (/proc), the
 * console's API (load with `-j`, the simulated hardware's listing, a save applied by the process's
 * reload), the GPIO device on the broker, the demo's output and the repository's example files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_FILES } from '../../../src/demo/demo-paths.js';
import { http, session } from '../../helpers/console-http.js';
import { MqttRecorder } from '../../helpers/mqtt-recorder.js';
import { startDemo, takenPort, type DemoProcess } from './demo-process.js';

const GPIO_ID = SERVICE_FILES.gpio.binary;
/** aedes speaks MQTT 3.1.1. */
const V311 = { protocolVersion: 4 } as const;

/** The inodes of the sockets listening on 127.0.0.1:`port` (/proc/net/tcp: hex address:port, state 0A). */
function listeningInodes(port: number): string[] {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((row) => row.trim().split(/\s+/))
    .filter((cols) => cols[1] === local && cols[3] === '0A')
    .map((cols) => cols[9]!);
}

/** The processes (of this user) that hold a socket with one of these inodes. */
function holdersOf(inodes: readonly string[]): number[] {
  const wanted = new Set(inodes.map((i) => `socket:[${i}]`));
  const pids: number[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${name}/fd`);
    } catch {
      continue; // another user's, or gone
    }
    const holds = fds.some((fd) => {
      try {
        return wanted.has(readlinkSync(`/proc/${name}/fd/${fd}`));
      } catch {
        return false;
      }
    });
    if (holds) pids.push(Number(name));
  }
  return pids;
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

function demoTempDir(demo: DemoProcess): string {
  const [name] = demo.leftovers().filter((n) => n.startsWith('ctl-mqtt-demo-'));
  assert.ok(name, `the demo's temp dir in ${demo.tmp}`);
  return join(demo.tmp, name);
}

test("the demo's console is the ctl-mqtt process's; a save there reloads the GPIO service only; examples/ untouched", async (t) => {
  const examples = [SERVICE_FILES.gpio.config, SERVICE_FILES.adc.config].map((f) => [f, readFileSync(f, 'utf8')] as const);
  const demo = await startDemo(t);
  await demo.waitForStdout('web console: http://');
  const url = /web console: (http:\/\/127\.0\.0\.1:(\d+)\/)/.exec(demo.stdout())!;
  const [base, port] = [url[1]!, Number(url[2])];

  // Who answers on the console's port: the demo's child, the ctl-mqtt process.
  const holders = holdersOf(listeningInodes(port));
  assert.equal(holders.length, 1, `one process listens on ${port}: ${holders.join(', ')}`);
  const pid = holders[0]!;
  assert.notEqual(pid, demo.child.pid);
  assert.equal(parentOf(pid), demo.child.pid, 'the demo started it');
  assert.match(readFileSync(`/proc/${pid}/cmdline`, 'utf8'), /dist\/bin\/ctl-mqtt\.js\0--gpio\0.*\0--adc\0.*\0--console\0/);

  const recorder = await MqttRecorder.start(`mqtt://127.0.0.1:${demo.port}`, ['/devices/ctl-gpio/meta'], V311);
  t.after(() => recorder.close().catch(() => undefined));
  await recorder.waitFor((m) => m.payload !== '' && JSON.parse(m.payload).title.en === 'Discrete I/O', { what: 'the GPIO device' });

  // No password on 127.0.0.1; the config is the demo's copy, read with -j.
  const { cookie, csrf } = await session(base);
  const headers = { Cookie: cookie, 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' };
  const loaded = await http(`${base}api/config/${GPIO_ID}`, { headers });
  assert.equal(loaded.status, 200, loaded.body);
  const { config, version } = JSON.parse(loaded.body) as { config: { device_name: string }; version: string };
  assert.equal(config.device_name, 'Discrete I/O');
  // The listing is of the simulated chips (--gpio-sim through the demo's script).
  const hardware = JSON.parse((await http(`${base}api/config/${GPIO_ID}/hardware`, { headers })).body) as {
    available: boolean;
    list: { chips: Array<{ lines: number }> };
  };
  assert.equal(hardware.available, true, JSON.stringify(hardware));
  assert.ok(hardware.list.chips.length > 0, JSON.stringify(hardware.list));

  // A save: the console's apply reloads the process, which reloads the GPIO service (its file changed) and no other.
  const mark = recorder.mark();
  const saved = await http(`${base}api/config/${GPIO_ID}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ config: { ...config, device_name: 'Demo I/O' }, version }),
  });
  assert.equal(saved.status, 200, saved.body);
  const answer = JSON.parse(saved.body) as { saved: boolean; applied: boolean };
  assert.deepEqual([answer.saved, answer.applied], [true, true], saved.body);
  await recorder.waitFor((m) => m.payload !== '' && JSON.parse(m.payload).title.en === 'Demo I/O', {
    from: mark,
    timeoutMs: 15_000,
    what: 'the renamed GPIO device',
  });
  await demo.waitForStdout('[ctl:gpio] SIGHUP: reloading the configuration');
  assert.match(demo.stdout(), /^gpio: .*\[ctl:gpio\] SIGHUP: reloading the configuration$/m);
  assert.match(demo.stdout(), /^ctl-mqtt: .*\[ctl:host\] SIGHUP: reloading each service/m);
  assert.doesNotMatch(demo.stdout(), /\[ctl:adc\] SIGHUP/);
  assert.match(demo.stdout(), /^console: .*\[ctl:console\]/m);

  // The save went to the demo's copy; the console keeps its versions in the demo's temp dir.
  const dir = demoTempDir(demo);
  assert.match(readFileSync(join(dir, `${GPIO_ID}.conf`), 'utf8'), /"Demo I\/O"/);
  assert.ok(existsSync(join(dir, 'ctl-mqtt-console')), `the console's state in ${dir}`);
  for (const [file, text] of examples) assert.equal(readFileSync(file, 'utf8'), text, `${file} is untouched`);

  demo.child.kill('SIGINT');
  assert.equal(await demo.exited, 0, demo.stdout() + demo.stderr());
  assert.deepEqual(demo.leftovers(), []);
});

test('a taken console port: one line naming --console-port, exit 1, nothing left', async (t) => {
  const port = await takenPort(t);
  const demo = await startDemo(t, ['--console-port', String(port)]);
  assert.equal(await demo.exited, 1);
  assert.equal(
    demo.stderr(),
    `ctl-mqtt demo: web console: cannot listen on 127.0.0.1:${port}: the port is taken (--console-port N picks another port)\n`,
  );
  assert.equal(demo.stdout(), '');
  assert.deepEqual(demo.leftovers(), []);
});
