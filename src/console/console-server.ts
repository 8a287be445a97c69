/**
 * The console's HTTP server: Node's http module and the small router below (a handful of routes
 * do not earn a framework). Pages and assets are static files; the page's data comes from /api/
 * (JSON, and Server-Sent Events for the live devices). Every request passes the guards of
 * request-guard.ts; every failure is one line of JSON (`{"error": ...}`), never a stack trace.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CtlError, messageOf } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { ConfigStore } from './config/config-store.js';
import type { ConfigServices } from './config/config-services.js';
import type { DeviceFeed } from './devices/device-feed.js';
import { CheckGate } from './auth/check-gate.js';
import { clientAddress, normalizeAddress } from './http/client-address.js';
import { configRoutes } from './config/config-routes.js';
import { shareConnections, type ShareLimits } from './http/connection-share.js';
import { historyRoute } from './devices/history-route.js';
import { closeWith, decodePathPart, HttpError, readJsonObject, redirect, sendError, sendJson } from './http/http-io.js';
import { LiveStream, type LiveStreamStats } from './devices/live-stream.js';
import { LOGIN_LIMITS, LoginLimiter } from './auth/login-limiter.js';
import { systemTime } from '../core/time.js';
import { verifyPassword } from './auth/password.js';
import { checkHost, checkPost, fromTrustedProxy, isLoopbackHost } from './auth/request-guard.js';
import { cookieValue, SESSION_COOKIE, sessionCookie, SessionStore, type Session } from './auth/sessions.js';
import { StaticFiles } from './http/static-files.js';
import { VisitorTokens } from './auth/visitor-tokens.js';
import { answer } from './http/answers.js';
import { answerIn } from './http/answer-language.js';
import { languageAsked } from './http/page-language.js';

export interface ConsoleServerOptions {
  /** Address to listen on (default 127.0.0.1); anything but loopback needs a password. */
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** The stored scrypt hash, or null: then only loopback is allowed and nobody logs in. */
  readonly passwordHash: string | null;
  readonly feed: DeviceFeed;
  readonly services: ConfigServices;
  /** The config store, loaded on first use. */
  readonly openStore: () => Promise<ConfigStore>;
  readonly log: Logger;
  /** Where the web files are (tests); default: the package's. */
  readonly webDir?: string;
  /** Reverse proxies whose `X-Forwarded-For` names the client (IP addresses); default none. */
  readonly trustedProxies?: readonly string[];
  /** Connection limits; the defaults suit a person or two (tests make them small). */
  readonly limits?: Partial<ConnectionLimits>;
}

export interface ConnectionLimits extends ShareLimits {
  /** A request's headers must be in within this time, its body within `requestTimeoutMs`. */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** How often Node looks for requests past those times. */
  readonly checkIntervalMs: number;
}

/**
 * 32 live pages, a few requests each, and room to spare; one address (a browser opens at most 6
 * connections to a host) gets 16 of them, so a slow-loris script gets no more.
 */
const DEFAULT_LIMITS: ConnectionLimits = {
  maxConnections: 128,
  perAddress: 16,
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 60_000,
  checkIntervalMs: 5_000,
};
/** A malformed or unfinished request gets this, and its connection is closed. */
const BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

export interface ConsoleServer {
  /** `http://127.0.0.1:8080/`. */
  readonly url: string;
  readonly server: Server;
  /** Open connections and live streams, for tests and diagnostics. */
  stats(): Promise<ConsoleStats>;
  close(): Promise<void>;
}

export interface ConsoleStats {
  readonly connections: number;
  readonly live: LiveStreamStats;
}

/** Body limit: a command or a login is tiny (configs: config-routes.ts). */
const SMALL_BODY = 4 * 1024;

interface Context {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly path: string;
  session: Session | undefined;
  /** Set-Cookie for a session made or replaced during this request. */
  cookie?: string;
}

/** Refuses to start on a non-loopback address without a password. @throws CtlError USAGE */
export function checkListenAddress(host: string, passwordHash: string | null): void {
  if (passwordHash === null && !isLoopbackHost(host)) {
    throw new CtlError(
      'USAGE',
      `listening on ${host} needs a password (anyone on that network could change the configuration): set one with 'ctl-mqtt-console --set-password', or listen on 127.0.0.1`,
    );
  }
}

export async function startConsoleServer(options: ConsoleServerOptions): Promise<ConsoleServer> {
  checkListenAddress(options.host, options.passwordHash);
  const loopbackOnly = options.passwordHash === null;
  const sessions = new SessionStore(loopbackOnly);
  const visitors = new VisitorTokens(loopbackOnly);
  const limiter = new LoginLimiter(LOGIN_LIMITS, systemTime);
  const passwordChecks = new CheckGate();
  const trustedProxies = new Set((options.trustedProxies ?? []).map(normalizeAddress));
  const limits: ConnectionLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const files = new StaticFiles(options.webDir);
  const live = new LiveStream(options.feed);
  const { feed, services, log } = options;

  const page = (ctx: Context, name: string): void => {
    if (!ctx.session?.authenticated) {
      redirect(ctx.res, `/login?next=${encodeURIComponent(ctx.path)}`, cookieHeader(ctx));
      return;
    }
    if (ctx.cookie !== undefined) ctx.res.setHeader('Set-Cookie', ctx.cookie);
    files.send(`/${name}`, ctx.res, undefined);
  };

  const requireAuth = (ctx: Context): Session => {
    if (!ctx.session?.authenticated) throw new HttpError(401, answer('login.needed'));
    return ctx.session;
  };

  const routes: Array<{ method: string; pattern: RegExp; handle: (ctx: Context, match: RegExpExecArray) => Promise<void> | void }> = [
    { method: 'GET', pattern: /^\/$/, handle: (ctx) => page(ctx, 'devices.html') },
    {
      method: 'GET',
      pattern: /^\/config\/([^/]+)$/,
      handle: (ctx, m) => {
        services.service(decodePathPart(m[1]!));
        page(ctx, 'config.html');
      },
    },
    {
      method: 'GET',
      pattern: /^\/login$/,
      handle: (ctx) => {
        if (ctx.session?.authenticated) return redirect(ctx.res, '/', cookieHeader(ctx));
        if (ctx.cookie !== undefined) ctx.res.setHeader('Set-Cookie', ctx.cookie);
        files.send('/login.html', ctx.res, undefined);
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/session$/,
      handle: (ctx) =>
        sendJson(
          ctx.res,
          200,
          {
            authenticated: ctx.session!.authenticated,
            passwordSet: !loopbackOnly,
            csrfToken: ctx.session!.csrfToken,
            services: ctx.session!.authenticated ? services.list().map((s) => ({ id: s.id, title: s.title })) : [],
          },
          cookieHeader(ctx),
        ),
    },
    {
      method: 'POST',
      pattern: /^\/api\/login$/,
      handle: async (ctx) => {
        const client = clientAddress(ctx.req, trustedProxies);
        const body = await readJsonObject(ctx.req, SMALL_BODY);
        const password = body['password'];
        if (typeof password !== 'string') throw new HttpError(400, 'password: expected a string');
        // The slot is taken before the check, in one step: parallel guesses cannot all pass.
        const refused = limiter.take(client);
        if (refused !== undefined) {
          sendJson(ctx.res, 429, { error: answerIn(languageAsked(ctx.req), refused.message) }, { 'Retry-After': String(refused.waitS) });
          return;
        }
        const entered = passwordChecks.enter();
        if (entered === undefined) {
          limiter.giveBack(client);
          sendJson(ctx.res, 503, { error: answerIn(languageAsked(ctx.req), answer('login.busy')) }, { 'Retry-After': '1' });
          return;
        }
        const release = await entered;
        let good: boolean;
        try {
          good = options.passwordHash !== null && (await verifyPassword(password, options.passwordHash));
        } finally {
          release();
        }
        if (!good) {
          log.warn(`wrong password from ${client}`);
          throw new HttpError(401, answer('login.wrong-password'));
        }
        limiter.succeeded(client);
        const session = sessions.login(ctx.session);
        sendJson(ctx.res, 200, { ok: true, csrfToken: session.csrfToken }, { 'Set-Cookie': sessionCookie(session, isHttps(ctx.req)) });
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/logout$/,
      handle: (ctx) => {
        sessions.logout(ctx.session!);
        sendJson(ctx.res, 200, { ok: true }, { 'Set-Cookie': `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0` });
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/devices$/,
      handle: (ctx) => {
        requireAuth(ctx);
        sendJson(ctx.res, 200, feed.snapshot());
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/devices\/live$/,
      handle: (ctx) => {
        requireAuth(ctx);
        if (!live.open(ctx.res)) throw new HttpError(503, answer('request.too-many-pages'));
      },
    },
    historyRoute(feed, requireAuth),
    {
      method: 'POST',
      pattern: /^\/api\/command$/,
      handle: async (ctx) => {
        requireAuth(ctx);
        const body = await readJsonObject(ctx.req, SMALL_BODY);
        const { device, control, value } = body;
        if (typeof device !== 'string' || typeof control !== 'string' || typeof value !== 'string') {
          throw new HttpError(400, 'expected {"device": string, "control": string, "value": string}');
        }
        await feed.command(device, control, value);
        sendJson(ctx.res, 200, { ok: true });
      },
    },
    ...configRoutes(services, options.openStore, (ctx) => requireAuth(ctx as Context)),
  ];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://console').pathname;
    } catch {
      throw new HttpError(400, 'bad request URL');
    }
    const viaProxy = fromTrustedProxy(req, trustedProxies);
    checkHost(req, loopbackOnly, viaProxy);
    const cookie = cookieValue(req.headers.cookie, SESSION_COOKIE);
    const ctx: Context = { req, res, path, session: sessions.get(cookie) ?? visitors.get(cookie) };
    const method = req.method ?? 'GET';
    if (method === 'GET' && path.startsWith('/assets/')) {
      if (!files.send(path.slice('/assets'.length), res, req.headers['if-none-match'])) throw new HttpError(404, 'no such file');
      return;
    }
    if (method === 'POST') {
      checkPost(req, ctx.session, viaProxy);
    } else if (ctx.session === undefined && (method === 'GET' || method === 'HEAD')) {
      ctx.session = visitors.create();
      ctx.cookie = sessionCookie(ctx.session, isHttps(req));
    }
    for (const route of routes) {
      const match = route.pattern.exec(path);
      if (match === null) continue;
      if (route.method !== method && !(method === 'HEAD' && route.method === 'GET')) continue;
      await route.handle(ctx, match);
      return;
    }
    const known = routes.some((r) => r.pattern.test(path));
    throw new HttpError(known ? 405 : 404, known ? `${method} is not allowed here` : `nothing at ${path}`);
  };

  const serverOptions = {
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
    maxHeaderSize: 16 * 1024,
  };
  const server = createServer(serverOptions, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof HttpError) {
        // The page's language: a Russian page reads the console's own answers in Russian.
        sendError(res, err.status, answerIn(languageAsked(req), err.message));
      } else {
        log.error(`${req.method} ${req.url}: ${messageOf(err)}`);
        sendError(res, 500, `internal error: ${messageOf(err).split('\n')[0]}`);
      }
    });
  });
  // Instead of server.maxConnections, which lets one client take every place.
  shareConnections(server, limits, trustedProxies);
  // Malformed HTTP, or headers / body not in on time: a plain 400 line, then the connection is
  // closed for good (a half-close would leave it open as long as the client likes).
  server.on('clientError', (_err, socket: Socket) => closeWith(socket, BAD_REQUEST));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why =
        err.code === 'EADDRINUSE' ? 'the port is taken' : err.code === 'EADDRNOTAVAIL' ? 'no such address on this machine' : err.message;
      reject(new CtlError('RUNTIME', `cannot listen on ${options.host}:${options.port}: ${why}`));
    });
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostInUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostInUrl}:${address.port}/`,
    server,
    async stats() {
      const connections = await new Promise<number>((resolve) => server.getConnections((_err, n) => resolve(n)));
      return { connections, live: live.stats() };
    },
    async close() {
      live.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function cookieHeader(ctx: Context): Record<string, string> {
  return ctx.cookie === undefined ? {} : { 'Set-Cookie': ctx.cookie };
}

/** Behind a TLS proxy that says so, the cookie gets `Secure`. */
function isHttps(req: IncomingMessage): boolean {
  return req.headers['x-forwarded-proto'] === 'https';
}
