import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cookieValue, sessionCookie, SessionStore } from '../../../../src/console/auth/sessions.js';
import { isLoopbackHost } from '../../../../src/console/auth/request-guard.js';
import { LOGIN_LIMITS, LoginLimiter } from '../../../../src/console/auth/login-limiter.js';
import { VisitorTokens } from '../../../../src/console/auth/visitor-tokens.js';
import { ManualTime } from '../../../helpers/manual-time.js';

test('sessions: unauthenticated with a password, replaced at login, forgotten when idle', () => {
  let now = 0;
  const store = new SessionStore(false, () => now);
  const visitor = store.create();
  assert.equal(visitor.authenticated, false);
  assert.equal(store.get(visitor.id), visitor);
  const user = store.login(visitor);
  assert.equal(user.authenticated, true);
  assert.notEqual(user.id, visitor.id);
  assert.equal(store.get(visitor.id), undefined);
  assert.equal(SessionStore.csrfMatches(user, user.csrfToken), true);
  assert.equal(SessionStore.csrfMatches(user, visitor.csrfToken), false);
  assert.equal(SessionStore.csrfMatches(user, undefined), false);
  now += 13 * 3600 * 1000;
  assert.equal(store.get(user.id), undefined);
  assert.equal(new SessionStore(true).create().authenticated, true);
});

test('sessions are bounded: the least recently used goes first', () => {
  const store = new SessionStore(true);
  const first = store.create();
  const second = store.create();
  store.get(first.id);
  for (let i = 0; i < 255; i++) store.create();
  assert.equal(store.get(second.id), undefined);
  assert.equal(store.get(first.id), first);
});

test('cookie flags and parsing', () => {
  const session = new SessionStore(true).create();
  assert.equal(sessionCookie(session, false), `ctl_console_session=${session.id}; Path=/; HttpOnly; SameSite=Strict`);
  assert.match(sessionCookie(session, true), /; Secure$/);
  assert.equal(cookieValue('a=1; ctl_console_session=xyz; b=2', 'ctl_console_session'), 'xyz');
  assert.equal(cookieValue(undefined, 'x'), undefined);
});

test('loopback host names', () => {
  for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '[::1]', '::1', 'app.localhost'])
    assert.equal(isLoopbackHost(host), true, host);
  for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com', '128.0.0.1', '']) assert.equal(isLoopbackHost(host), false, host);
});

test('login limiter: 10 checks a minute per client, then wait', () => {
  const time = new ManualTime();
  const limiter = new LoginLimiter(LOGIN_LIMITS, time);
  for (let i = 0; i < 10; i++) assert.equal(limiter.take('192.0.2.1'), undefined);
  assert.deepEqual(limiter.take('192.0.2.1'), { waitS: 60, message: 'too many wrong passwords: try again in 60 s' });
  assert.equal(limiter.take('192.0.2.2'), undefined, 'another address is not held up');
  time.jump(60_001);
  assert.equal(limiter.take('192.0.2.1'), undefined);
});

test('login limiter: a check takes its slot first; a good password frees them; a check not made is given back', () => {
  const limiter = new LoginLimiter({ perClient: 3, global: 100, windowMs: 60_000 }, new ManualTime());
  const taken = () => limiter.take('a') === undefined;
  assert.deepEqual([taken(), taken(), taken(), taken()], [true, true, true, false]);
  limiter.giveBack('a');
  assert.equal(taken(), true);
  limiter.succeeded('a');
  assert.equal(taken(), true);
});

test('login limiter: an IPv6 /64 is one client', () => {
  const limiter = new LoginLimiter(LOGIN_LIMITS, new ManualTime());
  for (let i = 0; i < 10; i++) assert.equal(limiter.take(`2001:db8:1:2::${(i + 1).toString(16)}`), undefined);
  assert.equal(limiter.take('2001:db8:1:2:ffff::1')?.waitS, 60, 'a fresh address in the same /64');
  assert.equal(limiter.take('2001:db8:1:3::1'), undefined, 'the next /64');
});

test('login limiter: 30 checks a minute from all addresses together, then everyone waits but an address the right password came from', () => {
  const time = new ManualTime();
  const limiter = new LoginLimiter(LOGIN_LIMITS, time);
  // The owner logs in once from home, early.
  assert.equal(limiter.take('198.51.100.1'), undefined);
  limiter.succeeded('198.51.100.1');
  time.jump(10 * 60_000);
  // 60 addresses guess, one guess each every second.
  let checked = 0;
  for (let second = 0; second < 60; second++) {
    for (let a = 1; a <= 60; a++) if (limiter.take(`10.0.${a}.1`) === undefined) checked++;
    time.jump(1000);
  }
  assert.equal(checked, 30, 'checks in the first minute from 60 addresses');
  // The budget is spent again at once: 30 more as the minute turns, then nothing.
  for (let a = 1; a <= 60; a++) limiter.take(`10.0.${a}.2`);
  const refused = limiter.take('203.0.113.9');
  assert.deepEqual(refused, {
    waitS: 60,
    message: 'too many wrong passwords from all addresses together (someone may be guessing): try again in 60 s',
  });
  assert.equal(limiter.take('198.51.100.1'), undefined, 'the address that logged in before still gets its checks');
  time.jump(60_001);
  assert.equal(limiter.take('203.0.113.9'), undefined, 'a minute later the budget is back');
});

test("visitor cookies are signed, not stored: a forged or another console's one is nobody", () => {
  const visitors = new VisitorTokens(false);
  const visitor = visitors.create();
  assert.match(visitor.id, /^[A-Za-z0-9_-]{32}$/);
  assert.equal(visitor.authenticated, false);
  assert.equal(visitors.get(visitor.id)?.id, visitor.id);
  assert.equal(visitors.get(visitor.id)?.csrfToken, visitor.csrfToken, 'the CSRF token follows from the cookie');
  assert.notEqual(visitors.create().csrfToken, visitor.csrfToken);
  const tampered = (visitor.id.startsWith('A') ? 'B' : 'A') + visitor.id.slice(1);
  for (const id of [tampered, visitor.id.slice(1), `${visitor.id}=`, '', undefined]) assert.equal(visitors.get(id), undefined, String(id));
  assert.equal(new VisitorTokens(false).get(visitor.id), undefined, 'another key');
  assert.equal(new VisitorTokens(true).create().authenticated, true, 'no password: everyone is in');
});
