import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cookieValue, sessionCookie, SessionStore } from '../../../src/console/sessions.js';
import { isLoopbackHost } from '../../../src/console/request-guard.js';
import { LoginLimiter } from '../../../src/console/login-limiter.js';
import { VisitorTokens } from '../../../src/console/visitor-tokens.js';

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

test('login limiter: 10 failures a minute per client, then wait', () => {
  let now = 0;
  const limiter = new LoginLimiter(10, 60_000, () => now);
  for (let i = 0; i < 10; i++) assert.equal(limiter.take('a'), 0);
  assert.equal(limiter.retryAfterS('a'), 60);
  assert.equal(limiter.retryAfterS('b'), 0);
  now += 60_001;
  assert.equal(limiter.retryAfterS('a'), 0);
});

test('login limiter: a check takes its slot first; a good password frees them; a check not made is given back', () => {
  const limiter = new LoginLimiter(3, 60_000, () => 0);
  assert.deepEqual([limiter.take('a'), limiter.take('a'), limiter.take('a'), limiter.take('a')], [0, 0, 0, 60]);
  limiter.giveBack('a');
  assert.equal(limiter.take('a'), 0);
  limiter.succeeded('a');
  assert.equal(limiter.retryAfterS('a'), 0);
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
