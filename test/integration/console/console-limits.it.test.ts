/**
 * The console under load or abuse, over plain HTTP and raw sockets: password guesses in parallel
 * and from behind a proxy, anonymous traffic next to a logged-in admin, malformed paths,
 * unfinished requests and too many connections, a live page that stops reading, and two saves of
 * one file. Each answer is checked, and what the console holds (connections, stream backlog) is
 * read from its stats.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startConsole, type ConsoleOptions, type RunningConsole } from '../../../src/console/console-app.js';
import { hashPassword } from '../../../src/console/auth/password.js';
import { serviceFromSchema } from '../../../src/console/config/service-definitions.js';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import { connectTestClient } from '../../helpers/mqtt-recorder.js';
import { startTestBroker, type TestBroker } from '../../helpers/test-broker.js';
import { eventually } from '../../helpers/wait-until.js';
import { http, session, sessionOf, type Answer } from '../../helpers/console-http.js';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const GPIO_SCHEMA = join(REPO, 'schemas/ctl-mqtt-gpio.schema.json');
const PASSWORD = 'correct horse';

function login(
  base: string,
  who: { cookie: string; csrf: string },
  password: string,
  headers: Record<string, string> = {},
  from?: string,
): Promise<Answer> {
  return http(`${base}api/login`, {
    method: 'POST',
    headers: { Cookie: who.cookie, 'X-CSRF-Token': who.csrf, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ password }),
    from,
  });
}

/** Logs in; the logged-in cookie and its CSRF token. */
async function loggedIn(base: string): Promise<{ cookie: string; csrf: string }> {
  const answer = await login(base, await session(base), PASSWORD);
  assert.equal(answer.status, 200, answer.body);
  return sessionOf(answer);
}

interface RawSocket {
  socket: Socket;
  received: () => string;
  closed: () => boolean;
}

/** A raw TCP connection to the console (from `from`), with what it received and whether the server closed it. */
function rawSocket(url: string, allowHalfOpen = false, from?: string): Promise<RawSocket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let data = '';
    let closed = false;
    const local = from === undefined ? {} : { localAddress: from };
    const socket = connect({ host: hostname, port: Number(port), allowHalfOpen, ...local }, () =>
      resolve({ socket, received: () => data, closed: () => closed }),
    );
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('end', () => (closed = true));
    socket.on('close', () => (closed = true));
    socket.on('error', () => (closed = true));
    socket.once('error', reject);
  });
}

describe('console limits', () => {
  let broker: TestBroker;
  let dir: string;
  let passwordHash: string;
  const consoles: RunningConsole[] = [];
  let configFile: string;

  const start = async (extra: Partial<ConsoleOptions> = {}): Promise<RunningConsole> => {
    const echo = [process.execPath, '-e', 'process.stdin.pipe(process.stdout)'];
    const c = await startConsole({
      host: '127.0.0.1',
      port: 0,
      passwordHash,
      broker: { url: broker.url },
      topicPrefix: '',
      services: [serviceFromSchema(GPIO_SCHEMA, { configFile, toJSON: echo, fromJSON: echo, apply: () => Promise.resolve() })],
      log: createMemoryLogger('console', false),
      stateDir: join(dirname(configFile), 'state'),
      ...extra,
    });
    consoles.push(c);
    return c;
  };

  before(async () => {
    broker = await startTestBroker();
    dir = mkdtempSync(join(tmpdir(), 'ctl-console-limits-'));
    configFile = join(dir, 'gpio.conf');
    writeFileSync(configFile, '{ "device_name": "Discrete I/O", "channels": [] }\n');
    passwordHash = await hashPassword(PASSWORD);
  });
  after(async () => {
    for (const c of consoles) await c.close();
    await broker?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('30 guesses sent at once: 10 are checked, the rest get 429, a right password among them too', async () => {
    // All 30 connections open at once from one address: more than its share of 16 (tested below).
    const c = await start({ limits: { perAddress: 30 } });
    const who = await session(c.url);
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 29 ? PASSWORD : `guess ${i}`));
    const statuses = (await Promise.all(guesses.map((g) => login(c.url, who, g)))).map((a) => a.status);
    const checked = statuses.filter((s) => s === 401 || s === 200).length;
    assert.equal(checked, 10, `statuses: ${statuses.join(' ')}`);
    assert.equal(statuses.filter((s) => s === 429).length, 20);
  });

  test('a lockout is for the guessing address only; X-Forwarded-For counts only from a trusted proxy', async () => {
    const proxied = await start({ trustedProxies: ['127.0.0.1'] });
    const who = await session(proxied.url);
    const guesser = { 'X-Forwarded-For': '198.51.100.7' };
    for (let i = 0; i < 10; i++) assert.equal((await login(proxied.url, who, 'guess', guesser)).status, 401);
    assert.equal((await login(proxied.url, who, PASSWORD, guesser)).status, 429, 'the guessing address waits');
    // The owner, behind the same proxy, from another address: not locked out.
    assert.equal((await login(proxied.url, who, PASSWORD, { 'X-Forwarded-For': '203.0.113.5, 192.0.2.1' })).status, 200);
    // Without a trusted proxy the header is the client's word: a new address per guess changes nothing.
    const direct = await start();
    const other = await session(direct.url);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await login(direct.url, other, 'guess', { 'X-Forwarded-For': `198.51.100.${i + 1}` })).status);
    assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
  });

  test('guesses from many addresses share one budget of 30 a minute; the owner who logged in before still gets in', async () => {
    const c = await start();
    const owner = await session(c.url);
    assert.equal((await login(c.url, owner, PASSWORD)).status, 200, 'the owner logs in from 127.0.0.1');
    // Four addresses, twelve guesses each: all of them within their own 10, not within the 30 of all.
    const guessers = ['127.0.1.1', '127.0.1.2', '127.0.1.3', '127.0.1.4'];
    const statuses = (
      await Promise.all(
        guessers.map(async (from) => {
          const who = await session(c.url, from);
          const own: number[] = [];
          for (let i = 0; i < 12; i++) own.push((await login(c.url, who, `guess ${i}`, {}, from)).status);
          return own;
        }),
      )
    ).flat();
    assert.equal(statuses.filter((s) => s === 401).length, 30, `statuses: ${statuses.join(' ')}`);
    // A fifth address, never seen: the budget of all is spent, and the answer says for how long.
    const newcomer = await login(c.url, await session(c.url, '127.0.1.5'), PASSWORD, {}, '127.0.1.5');
    assert.equal(newcomer.status, 429);
    assert.match(
      (JSON.parse(newcomer.body) as { error: string }).error,
      /^too many wrong passwords from all addresses together \(someone may be guessing\): try again in \d+ s$/,
    );
    assert.match(String(newcomer.headers['retry-after']), /^\d+$/);
    assert.equal((await login(c.url, await session(c.url), PASSWORD)).status, 200, 'the address that logged in before');
  });

  test('anonymous requests never push the logged-in session out', async () => {
    const c = await start();
    const admin = await loggedIn(c.url);
    for (let i = 0; i < 300; i++) {
      const answer = await http(i % 2 === 0 ? c.url : `${c.url}api/session`);
      assert.ok(answer.status === 303 || answer.status === 200, String(answer.status));
    }
    assert.equal((await http(`${c.url}api/devices`, { headers: { Cookie: admin.cookie } })).status, 200);
    const command = await http(`${c.url}api/command`, {
      method: 'POST',
      headers: { Cookie: admin.cookie, 'X-CSRF-Token': admin.csrf, 'Content-Type': 'application/json' },
      body: JSON.stringify({ device: 'none', control: 'none', value: '1' }),
    });
    assert.deepEqual(
      [command.status, JSON.parse(command.body)],
      [404, { error: 'no control none on device none' }],
      'past the session and CSRF checks',
    );
    // A visitor's cookie is signed by this console: a made-up one is no session.
    const forged = await http(`${c.url}api/session`, { headers: { Cookie: 'ctl_console_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } });
    assert.match(String(forged.headers['set-cookie']), /^ctl_console_session=(?!AAAA)/, 'a forged cookie gets replaced');
  });

  test('a malformed percent-encoding in the path is a 400, not an error in the log', async () => {
    const log = createMemoryLogger('console', true);
    const c = await start({ log });
    for (const path of ['config/%ZZ', 'api/config/%ZZ', 'config/%E0%A4%A']) {
      const answer = await http(`${c.url}${path}`);
      assert.equal(answer.status, 400, path);
      assert.match((JSON.parse(answer.body) as { error: string }).error, /^malformed percent-encoding in the path/);
    }
    assert.deepEqual(
      log.lines.filter((l) => l.startsWith('ERROR')),
      [],
    );
  });

  test('a save names the version it edits: a stale one is refused and the file kept', async () => {
    const c = await start();
    const admin = await loggedIn(c.url);
    const headers = { Cookie: admin.cookie, 'X-CSRF-Token': admin.csrf, 'Content-Type': 'application/json' };
    const load = async (): Promise<string> =>
      (JSON.parse((await http(`${c.url}api/config/ctl-mqtt-gpio`, { headers })).body) as { version: string }).version;
    const save = (name: string, version: string | undefined) =>
      http(`${c.url}api/config/ctl-mqtt-gpio`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ config: { device_name: name, channels: [] }, version }),
      });
    const first = await load();
    const second = await load();
    assert.equal((await save('First', first)).status, 200);
    const stale = await save('Second', second);
    assert.equal(stale.status, 409);
    assert.match(
      (JSON.parse(stale.body) as { error: string }).error,
      /was changed \(by another page, or by hand\) since this page loaded it/,
    );
    assert.equal((JSON.parse(readFileSync(configFile, 'utf8')) as { device_name: string }).device_name, 'First');
    const unnamed = await save('Third', undefined);
    assert.equal(unnamed.status, 400);
    assert.match((JSON.parse(unnamed.body) as { error: string }).error, /^version: expected the version/);
    assert.equal((await save('Third', await load())).status, 200);
  });

  test('an unfinished request is answered 400 and its connection closed, not half-closed', async () => {
    const c = await start({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 100 } });
    // A client that keeps its side open after the server's FIN, and sends half a request.
    const raw = await rawSocket(c.url, true);
    raw.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await eventually('the 400', () => (raw.received().startsWith('HTTP/1.1 400 Bad Request') ? true : undefined));
    await eventually('the connection gone on the console side', async () => ((await c.stats()).connections === 0 ? true : undefined));
    raw.socket.destroy();
  });

  test('connections beyond the cap are answered 503 and closed at once', async () => {
    const c = await start({ limits: { maxConnections: 3 } });
    const held = await Promise.all([0, 1, 2].map(() => rawSocket(c.url)));
    await eventually('3 connections', async () => ((await c.stats()).connections === 3 ? true : undefined));
    const extra = await rawSocket(c.url);
    await eventually('the 4th connection closed', () => (extra.closed() ? true : undefined), 5000);
    assert.match(extra.received(), /^HTTP\/1\.1 503 Service Unavailable\r\n/);
    assert.match(extra.received(), /\{"error":"too many connections \(at most 3 at once\): try again in a moment"\}$/);
    for (const h of held) h.socket.destroy();
    await eventually('room again', async () => ((await c.stats()).connections === 0 ? true : undefined));
    assert.equal((await http(`${c.url}api/session`)).status, 200);
  });

  test('one address holding 140 unfinished requests gets 16 places: requests from another address are all served', async () => {
    const c = await start();
    // Half a request on each, as a slow-loris script keeps them.
    const flood = await Promise.all(
      Array.from({ length: 140 }, async () => {
        const raw = await rawSocket(c.url, false, '127.0.0.2');
        if (!raw.closed()) raw.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        return raw;
      }),
    );
    try {
      await eventually('all but 16 refused', () => (flood.filter((r) => r.closed()).length === 124 ? true : undefined));
      const refused = flood.find((r) => r.closed())!.received();
      assert.match(refused, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
      assert.match(refused, /\{"error":"too many connections from 127\.0\.0\.2 \(at most 16 at once\)"\}$/);
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++) statuses.push((await http(`${c.url}api/session`, { from: '127.0.0.1' })).status);
      assert.deepEqual(statuses, Array(24).fill(200));
    } finally {
      for (const r of flood) r.socket.destroy();
    }
  });

  test("when every place is taken, a newcomer takes the place of the busiest address's oldest unfinished request", async () => {
    const c = await start({ limits: { maxConnections: 6, perAddress: 4 } });
    const unfinished = async (from: string): Promise<RawSocket> => {
      const raw = await rawSocket(c.url, false, from);
      raw.socket.write('GET / HTTP/1.1\r\n');
      await eventually('the connection counted', async () => ((await c.stats()).connections > 0 ? true : undefined));
      return raw;
    };
    const busiest: RawSocket[] = [];
    for (let i = 0; i < 4; i++) busiest.push(await unfinished('127.0.0.2'));
    const other = [await unfinished('127.0.0.3'), await unfinished('127.0.0.3')];
    await eventually('every place taken', async () => ((await c.stats()).connections === 6 ? true : undefined));
    try {
      assert.equal((await http(`${c.url}api/session`, { from: '127.0.0.1' })).status, 200);
      await eventually("127.0.0.2's oldest closed", () => (busiest[0]!.closed() ? true : undefined));
      assert.deepEqual(
        [...busiest.slice(1), ...other].map((r) => r.closed()),
        [false, false, false, false, false],
        'only that one',
      );
      // Full again, with three places each: a newcomer from either takes none from the other.
      other.push(await unfinished('127.0.0.3'));
      await eventually('every place taken again', async () => ((await c.stats()).connections === 6 ? true : undefined));
      const refused = await rawSocket(c.url, false, '127.0.0.3');
      await eventually('the newcomer refused', () => (refused.closed() ? true : undefined));
      assert.match(refused.received(), /too many connections \(at most 6 at once\)/);
      assert.deepEqual(
        [...busiest.slice(1), ...other].map((r) => r.closed()),
        Array(6).fill(false),
      );
    } finally {
      for (const r of [...busiest, ...other]) r.socket.destroy();
    }
  });

  test('a live page that stops reading holds at most one picture, and gets the latest when it reads again', async () => {
    const c = await start({ passwordHash: null });
    const client = await connectTestClient(broker.url);
    const controls = Array.from({ length: 20 }, (_, i) => `c${i}`);
    await client.publishAsync('/devices/bulk/meta', JSON.stringify({ title: { en: 'Bulk' } }), { retain: true, qos: 1 });
    for (const name of controls)
      await client.publishAsync(`/devices/bulk/controls/${name}/meta`, JSON.stringify({ type: 'text', readonly: true }), {
        retain: true,
        qos: 1,
      });
    // A page that never reads: paused at once, the kernel's receive buffer stays small.
    const { hostname, port } = new URL(c.url);
    const page = connect({ host: hostname, port: Number(port) });
    page.pause();
    page.write(`GET /api/devices/live HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
    try {
      await eventually('the stream open', async () => ((await c.stats()).live.streams === 1 ? true : undefined));
      let frameBytes = 0;
      const rounds = 20;
      for (let round = 0; round < rounds; round++) {
        const before = (await c.stats()).live.pictures;
        const value = `round${round}-`.padEnd(16 * 1024, 'x');
        await Promise.all(controls.map((name) => client.publishAsync(`/devices/bulk/controls/${name}`, value, { qos: 1 })));
        await eventually(`a picture of round ${round}`, async () => ((await c.stats()).live.pictures > before ? true : undefined));
        frameBytes = Math.max(frameBytes, JSON.stringify(c.feed.snapshot()).length);
      }
      const { backlogBytes } = (await c.stats()).live;
      assert.ok(frameBytes > 300_000, `pictures of ${frameBytes} bytes`);
      assert.ok(
        backlogBytes <= frameBytes + 64 * 1024,
        `${backlogBytes} bytes held for a page that reads nothing (${rounds} pictures of ${frameBytes} bytes were made)`,
      );
      // Reading again: the latest state arrives.
      let seen = '';
      page.setEncoding('latin1');
      page.on('data', (chunk: string) => (seen = (seen + chunk).slice(-64 * 1024)));
      page.resume();
      const last = `round${rounds - 1}-`;
      await eventually('the latest picture', () => (seen.includes(last) ? true : undefined));
    } finally {
      page.destroy();
      for (const name of controls) await client.publishAsync(`/devices/bulk/controls/${name}/meta`, '', { retain: true, qos: 1 });
      await client.publishAsync('/devices/bulk/meta', '', { retain: true, qos: 1 });
      await client.endAsync();
    }
  });
});
