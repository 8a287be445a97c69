/**
 * The console's security points over plain HTTP (no browser needed): loopback by default and a
 * refusal of any other address without a password, the password stored as a salted hash by
 * `--set-password`, the session cookie's flags, CSRF and origin checks on every POST, bounded
 * bodies, only the schemas' config files reachable, the Host check against DNS rebinding, and
 * helper commands run without a shell. Each bad request gets one line of JSON, never a trace.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startConsole, type RunningConsole } from '../../../src/console/console-app.js';
import { ConfigServices } from '../../../src/console/config/config-services.js';
import { ConfigStore, fileVersion } from '../../../src/console/config/config-store.js';
import { hashPassword, verifyPassword } from '../../../src/console/auth/password.js';
import { serviceFromSchema } from '../../../src/console/config/service-definitions.js';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import { startTestBroker, type TestBroker } from '../../helpers/test-broker.js';
import { http, session } from '../../helpers/console-http.js';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const CONSOLE_MAIN = join(REPO, 'dist/src/cli/console-main.js');
const GPIO_SCHEMA = join(REPO, 'schemas/ctl-mqtt-gpio.schema.json');

function runConsoleCli(args: string[], input?: string): { status: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CONSOLE_MAIN, ...args], { input: input ?? '', encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

describe('console security over HTTP', () => {
  let broker: TestBroker;
  let dir: string;
  let open: RunningConsole;
  let configFile: string;
  const marker = (): string => join(dir, 'applied');

  before(async () => {
    broker = await startTestBroker();
    dir = mkdtempSync(join(tmpdir(), 'ctl-console-sec-'));
    configFile = join(dir, 'gpio.conf');
    writeFileSync(configFile, '{ "device_name": "Discrete I/O", "channels": [] }\n');
    // -j / -J by a stand-in that echoes (the real ones are covered by the browser tests); apply
    // writes its arguments to a file: a `;` in them must arrive as text, not run a command.
    const echo = [process.execPath, '-e', 'process.stdin.pipe(process.stdout)'];
    const apply = [
      process.execPath,
      '-e',
      'require("fs").writeFileSync(process.argv[1], process.argv.slice(2).join(" "))',
      marker(),
      'x; touch',
      join(dir, 'pwned'),
    ];
    open = await startConsole({
      host: '127.0.0.1',
      port: 0,
      passwordHash: null,
      broker: { url: broker.url },
      topicPrefix: '',
      services: [serviceFromSchema(GPIO_SCHEMA, { configFile, toJSON: echo, fromJSON: echo, apply })],
      log: createMemoryLogger('console', false),
      stateDir: join(dir, 'state'),
    });
  });
  after(async () => {
    await open?.close();
    await broker?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('loopback by default; another address without a password is refused at start', async () => {
    const r = runConsoleCli(['--listen', '0.0.0.0', '--port', '1', '--password-file', join(dir, 'none'), '--schema', GPIO_SCHEMA]);
    assert.equal(r.status, 2);
    assert.match(r.err, /^ctl-mqtt-console: listening on 0\.0\.0\.0 needs a password .*--set-password/);
    assert.doesNotMatch(r.err, /\n\s+at /, 'no stack trace');
    await assert.rejects(
      startConsole({
        host: '192.168.1.10',
        port: 0,
        passwordHash: null,
        broker: { url: broker.url },
        topicPrefix: '',
        services: [],
        log: createMemoryLogger(),
      }),
      /needs a password/,
    );
    assert.match(open.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.match(runConsoleCli(['--help']).out, /--listen ADDR .*default 127\.0\.0\.1/);
  });

  test('over-long broker credentials, from any source, are one usage line and exit 2', () => {
    const long = 'u'.repeat(70_000);
    const cases: Array<[string[], RegExp]> = [
      [['-u', long], /^ctl-mqtt-console: -u \(user name\) is too long for MQTT: 70,000 bytes of UTF-8 \(the limit is 65,535\)\n/],
      [[`--username=${long}`], /^ctl-mqtt-console: -u \(user name\) is too long for MQTT: 70,000 bytes/],
      [['-P', long], /^ctl-mqtt-console: -P \(password\) is too long for MQTT: 70,000 bytes/],
      [['--broker', `mqtt://${long}@127.0.0.1:1`], /^ctl-mqtt-console: the user name in --broker's URL is too long for MQTT: 70,000 bytes/],
      [
        ['--broker', `mqtt://me:${'p'.repeat(69_999)}%70@127.0.0.1:1`],
        /^ctl-mqtt-console: the password in --broker's URL is too long for MQTT: 70,000 bytes/,
      ],
      [['--broker', 'mqtt://me:%ZZ@127.0.0.1:1'], /^ctl-mqtt-console: the password in --broker's URL has a malformed percent-encoding/],
    ];
    for (const [args, message] of cases) {
      const r = runConsoleCli([...args, '--port', '1', '--password-file', join(dir, 'none'), '--schema', GPIO_SCHEMA]);
      assert.equal(r.status, 2, `${args[0]}: ${r.err.slice(0, 200)}`);
      assert.match(r.err, message);
      assert.equal(r.err.split('\n').length, 3, 'one line and the --help hint');
    }
  });

  test('--set-password stores a salted scrypt hash, readable by its owner only', async () => {
    const file = join(dir, 'password');
    const r = runConsoleCli(['--set-password', '--password-file', file], 'correct horse battery\n');
    assert.equal(r.status, 0, r.err);
    const stored = readFileSync(file, 'utf8').trim();
    assert.match(stored, /^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    assert.ok(!stored.includes('correct horse'));
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(await verifyPassword('correct horse battery', stored), true);
    assert.equal(await verifyPassword('correct horse', stored), false);
    // Salted: the same password twice gives two different hashes.
    assert.notEqual(await hashPassword('same password'), await hashPassword('same password'));
    const short = runConsoleCli(['--set-password', '--password-file', file], 'short\n');
    assert.equal(short.status, 2);
    assert.match(short.err, /at least 8 characters/);
  });

  test('the session cookie is HttpOnly and SameSite=Strict; the page gets its CSRF token', async () => {
    const answer = await http(open.url);
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers['set-cookie']), /^ctl_console_session=[A-Za-z0-9_-]{32}; Path=\/; HttpOnly; SameSite=Strict$/);
    assert.match(String(answer.headers['content-security-policy']), /script-src 'self'/);
    assert.equal(answer.headers['x-frame-options'], 'DENY');
  });

  test('every POST needs the session and its CSRF token, from the same origin', async () => {
    const { cookie, csrf } = await session(open.url);
    const body = JSON.stringify({ device: 'ctl-gpio', control: 'relay1', value: '1' });
    const post = (headers: Record<string, string>) =>
      http(`${open.url}api/command`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
    const cases: Array<[Record<string, string>, number, string]> = [
      [{}, 403, 'no session: reload the page (cookies must be allowed)'],
      [{ Cookie: cookie }, 403, 'missing or wrong CSRF token: reload the page'],
      [
        { Cookie: cookie, 'X-CSRF-Token': csrf.slice(0, -1) + (csrf.endsWith('A') ? 'B' : 'A') },
        403,
        'missing or wrong CSRF token: reload the page',
      ],
      [{ Cookie: cookie, 'X-CSRF-Token': csrf, Origin: 'http://evil.example' }, 403, 'the request comes from another site'],
      [{ Cookie: 'ctl_console_session=forged', 'X-CSRF-Token': csrf }, 403, 'no session: reload the page (cookies must be allowed)'],
    ];
    for (const [headers, status, error] of cases) {
      const answer = await post(headers);
      assert.equal(answer.status, status, JSON.stringify(headers));
      assert.deepEqual(JSON.parse(answer.body), { error });
    }
    // With both: past the guards (the control does not exist on this broker).
    const good = await post({ Cookie: cookie, 'X-CSRF-Token': csrf });
    assert.equal(good.status, 404);
    assert.deepEqual(JSON.parse(good.body), { error: 'no control relay1 on device ctl-gpio' });
  });

  test('bodies are bounded and must be JSON objects; bad requests get one line, never a trace', async () => {
    const { cookie, csrf } = await session(open.url);
    const headers = { Cookie: cookie, 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' };
    const big = await http(`${open.url}api/command`, { method: 'POST', headers, body: Buffer.alloc(5000, 0x20) });
    assert.equal(big.status, 413);
    assert.deepEqual(JSON.parse(big.body), { error: 'request body too large (at most 4096 bytes)' });
    const huge = await http(`${open.url}api/config/ctl-mqtt-gpio`, { method: 'POST', headers, body: Buffer.alloc(1024 * 1024 + 1, 0x20) });
    assert.equal(huge.status, 413);
    const cases: Array<[string, Record<string, string>, string, number, RegExp]> = [
      ['api/command', headers, '{"device":', 400, /^the request body is not valid JSON$/],
      ['api/command', headers, '[1]', 400, /^the request body must be a JSON object$/],
      ['api/command', headers, '{"device":1}', 400, /^expected \{"device": string/],
      ['api/command', { ...headers, 'Content-Type': 'text/plain' }, '{}', 415, /^the request body must be application\/json$/],
      ['api/config/ctl-mqtt-gpio', headers, '{"config":[]}', 400, /^expected \{"config": \{\.\.\.\}\}$/],
      ['api/nothing', headers, '{}', 404, /^nothing at \/api\/nothing$/],
    ];
    for (const [path, h, body, status, error] of cases) {
      const answer = await http(`${open.url}${path}`, { method: 'POST', headers: h, body });
      assert.equal(answer.status, status, `${path} ${body}`);
      assert.match((JSON.parse(answer.body) as { error: string }).error, error);
    }
    const put = await http(`${open.url}api/command`, { method: 'PUT', headers, body: '{}' });
    assert.equal(put.status, 405);
  });

  test('only the config files named by the schemas can be read or written', async () => {
    const { cookie, csrf } = await session(open.url);
    const headers = { Cookie: cookie, 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' };
    for (const name of ['..%2F..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd', 'ctl-mqtt-adc', 'passwd']) {
      const read = await http(`${open.url}api/config/${name}`, { headers });
      assert.equal(read.status, 404, name);
      const write = await http(`${open.url}api/config/${name}`, { method: 'POST', headers, body: '{"config":{}}' });
      assert.equal(write.status, 404, name);
      assert.match((JSON.parse(write.body) as { error: string }).error, /^no configuration named /);
    }
    const list = JSON.parse((await http(`${open.url}api/config`, { headers })).body) as {
      services: Array<{ id: string; configFile: string }>;
    };
    assert.deepEqual(
      list.services.map((s) => [s.id, s.configFile]),
      [['ctl-mqtt-gpio', configFile]],
    );
  });

  test('a save replaces the file, keeps the old and the new as versions, and runs apply without a shell', async () => {
    const { cookie, csrf } = await session(open.url);
    const before = readFileSync(configFile, 'utf8');
    const { version } = JSON.parse((await http(`${open.url}api/config/ctl-mqtt-gpio`, { headers: { Cookie: cookie } })).body) as {
      version: string;
    };
    const answer = await http(`${open.url}api/config/ctl-mqtt-gpio`, {
      method: 'POST',
      headers: { Cookie: cookie, 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' },
      body: JSON.stringify({ config: { device_name: 'Renamed', channels: [] }, version }),
    });
    assert.equal(answer.status, 200, answer.body);
    const saved = JSON.parse(answer.body) as { saved: boolean; applied: boolean; version: string };
    assert.deepEqual([saved.saved, saved.applied], [true, true]);
    const after = readFileSync(configFile, 'utf8');
    assert.deepEqual(JSON.parse(after), { device_name: 'Renamed', channels: [] });
    assert.equal(saved.version, fileVersion(after));
    const kept = readdirSync(join(dir, 'state', 'versions', 'ctl-mqtt-gpio')).sort();
    assert.deepEqual(
      kept.map((name) => readFileSync(join(dir, 'state', 'versions', 'ctl-mqtt-gpio', name), 'utf8')),
      [before, after],
    );
    assert.equal(existsSync(`${configFile}.bak`), false);
    assert.deepEqual(
      readdirSync(join(dir, 'state')).filter((n) => n.startsWith('pending-')),
      [],
      'no write left half done',
    );
    assert.equal(readFileSync(marker(), 'utf8'), `x; touch ${join(dir, 'pwned')}`);
    assert.equal(existsSync(join(dir, 'pwned')), false);
  });

  test('a failing -J changes nothing and its lines are the answer', async () => {
    const file = join(dir, 'refused.conf');
    writeFileSync(file, '{}\n');
    const fail = [
      process.execPath,
      '-e',
      'process.stderr.write("<stdin>:1:2: channels[0].name: is required\\nWARNING: ignored\\n"); process.exit(6)',
    ];
    const store = new ConfigStore(
      new ConfigServices([
        { ...serviceFromSchema(GPIO_SCHEMA, { configFile: file, fromJSON: fail, apply: () => Promise.reject(new Error('must not run')) }) },
      ]),
      createMemoryLogger(),
      join(dir, 'refused-state'),
    );
    assert.deepEqual(await store.save('ctl-mqtt-gpio', { channels: [{}] }), {
      saved: false,
      problems: ['channels[0].name: is required'],
      refusedBy: 'service',
    });
    assert.equal(readFileSync(file, 'utf8'), '{}\n');
    assert.equal(existsSync(join(dir, 'refused-state')), false);
  });

  test('loopback-only: another Host name (DNS rebinding) is refused', async () => {
    const port = new URL(open.url).port;
    for (const host of ['evil.example', `evil.example:${port}`, `192.168.1.2:${port}`]) {
      const answer = await http(open.url, { headers: { Host: host } });
      assert.equal(answer.status, 421, host);
      assert.match((JSON.parse(answer.body) as { error: string }).error, /answers only on a loopback address/);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      assert.equal((await http(open.url, { headers: { Host: host } })).status, 200, host);
    }
  });

  test('with a password: the API answers 401 until login; a wrong password 401, too many 429', async () => {
    const secured = await startConsole({
      host: '127.0.0.1',
      port: 0,
      passwordHash: await hashPassword('correct horse'),
      broker: { url: broker.url },
      topicPrefix: '',
      services: [],
      log: createMemoryLogger('console', false),
      stateDir: join(dir, 'state'),
    });
    try {
      const { cookie, csrf } = await session(secured.url);
      assert.equal((await http(`${secured.url}api/devices`, { headers: { Cookie: cookie } })).status, 401);
      const page = await http(secured.url, { headers: { Cookie: cookie } });
      assert.equal(page.status, 303);
      assert.equal(page.headers.location, '/login?next=%2F');
      const login = (password: string) =>
        http(`${secured.url}api/login`, {
          method: 'POST',
          headers: { Cookie: cookie, 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' },
          body: JSON.stringify({ password }),
        });
      assert.equal((await login('wrong')).status, 401);
      const ok = await login('correct horse');
      assert.equal(ok.status, 200);
      const fresh = String(ok.headers['set-cookie']).split(';')[0]!;
      assert.notEqual(fresh, cookie, 'the session id changes at login');
      assert.equal((await http(`${secured.url}api/devices`, { headers: { Cookie: fresh } })).status, 200);
      assert.equal((await http(`${secured.url}api/devices`, { headers: { Cookie: cookie } })).status, 401, 'the old id is worth nothing');
      const again = await session(secured.url);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const r = await http(`${secured.url}api/login`, {
          method: 'POST',
          headers: { Cookie: again.cookie, 'X-CSRF-Token': again.csrf, 'Content-Type': 'application/json' },
          body: '{"password":"guess"}',
        });
        statuses.push(r.status);
      }
      assert.deepEqual(statuses, [...Array(10).fill(401), 429], '10 wrong passwords a minute, then 429');
    } finally {
      await secured.close();
    }
  });
});
