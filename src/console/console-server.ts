/**
 * The console's HTTP server: Node's http module and the small router below (a handful of routes
 * do not earn a framework). Pages and assets are static files; the page's data comes from /api/
 * (JSON, and Server-Sent Events for the live devices). Every request passes the guards of
 * request-guard.ts; every failure is one line of JSON (`{"error": ...}`), never a stack trace.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CtlError, messageOf } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { ConfigStore } from './config-store.js';
import type { DeviceFeed } from './device-feed.js';
import { HttpError, readJsonObject, redirect, sendError, sendJson } from './http-io.js';
import { LiveStream } from './live-stream.js';
import { LoginLimiter } from './login-limiter.js';
import { verifyPassword } from './password.js';
import { checkHost, checkPost, isLoopbackHost } from './request-guard.js';
import { cookieValue, SESSION_COOKIE, sessionCookie, SessionStore, type Session } from './sessions.js';
import { StaticFiles } from './static-files.js';

export interface ConsoleServerOptions {
  /** Address to listen on (default 127.0.0.1); anything but loopback needs a password. */
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** The stored scrypt hash, or null: then only loopback is allowed and nobody logs in. */
  readonly passwordHash: string | null;
  readonly feed: DeviceFeed;
  readonly store: ConfigStore;
  readonly log: Logger;
  /** Where the web files are (tests); default: the package's. */
  readonly webDir?: string;
}

export interface ConsoleServer {
  /** `http://127.0.0.1:8080/`. */
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** Body limits: a command or a login is tiny; a config is a few KiB (256 channels: ~60 KiB). */
const SMALL_BODY = 4 * 1024;
const CONFIG_BODY = 1024 * 1024;

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
  const limiter = new LoginLimiter();
  const files = new StaticFiles(options.webDir);
  const live = new LiveStream(options.feed);
  const { feed, store, log } = options;

  const page = (ctx: Context, name: string): void => {
    if (!ctx.session?.authenticated) {
      redirect(ctx.res, `/login?next=${encodeURIComponent(ctx.path)}`, cookieHeader(ctx));
      return;
    }
    if (ctx.cookie !== undefined) ctx.res.setHeader('Set-Cookie', ctx.cookie);
    files.send(`/${name}`, ctx.res, undefined);
  };

  const requireAuth = (ctx: Context): Session => {
    if (!ctx.session?.authenticated) throw new HttpError(401, 'not logged in');
    return ctx.session;
  };

  const routes: Array<{ method: string; pattern: RegExp; handle: (ctx: Context, match: RegExpExecArray) => Promise<void> | void }> = [
    { method: 'GET', pattern: /^\/$/, handle: (ctx) => page(ctx, 'devices.html') },
    {
      method: 'GET',
      pattern: /^\/config\/([^/]+)$/,
      handle: (ctx, m) => {
        store.service(decodeURIComponent(m[1]!));
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
            services: ctx.session!.authenticated ? store.list().map((s) => ({ id: s.id, title: s.title })) : [],
          },
          cookieHeader(ctx),
        ),
    },
    {
      method: 'POST',
      pattern: /^\/api\/login$/,
      handle: async (ctx) => {
        const client = ctx.req.socket.remoteAddress ?? '?';
        const wait = limiter.retryAfterS(client);
        if (wait > 0) {
          sendJson(ctx.res, 429, { error: `too many wrong passwords: try again in ${wait} s` }, { 'Retry-After': String(wait) });
          return;
        }
        const body = await readJsonObject(ctx.req, SMALL_BODY);
        if (typeof body['password'] !== 'string') throw new HttpError(400, 'password: expected a string');
        if (options.passwordHash === null || !(await verifyPassword(body['password'], options.passwordHash))) {
          limiter.failed(client);
          log.warn(`wrong password from ${client}`);
          throw new HttpError(401, 'wrong password');
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
        if (!live.open(ctx.res)) throw new HttpError(503, 'too many open pages');
      },
    },
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
    {
      method: 'GET',
      pattern: /^\/api\/config$/,
      handle: (ctx) => {
        requireAuth(ctx);
        sendJson(ctx.res, 200, { services: store.list() });
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/config\/([^/]+)$/,
      handle: async (ctx, m) => {
        requireAuth(ctx);
        const id = decodeURIComponent(m[1]!);
        const service = store.service(id);
        const { schema, config } = await store.load(id);
        sendJson(ctx.res, 200, { id, title: service.title, configFile: service.configFile, schema, config });
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/config\/([^/]+)$/,
      handle: async (ctx, m) => {
        requireAuth(ctx);
        const id = decodeURIComponent(m[1]!);
        store.service(id);
        const body = await readJsonObject(ctx.req, CONFIG_BODY);
        if (body['config'] === null || typeof body['config'] !== 'object' || Array.isArray(body['config'])) {
          throw new HttpError(400, 'expected {"config": {...}}');
        }
        const result = await store.save(id, body['config']);
        sendJson(ctx.res, result.saved ? 200 : 422, result);
      },
    },
  ];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://console').pathname;
    } catch {
      throw new HttpError(400, 'bad request URL');
    }
    checkHost(req, loopbackOnly);
    const ctx: Context = { req, res, path, session: sessions.get(cookieValue(req.headers.cookie, SESSION_COOKIE)) };
    const method = req.method ?? 'GET';
    if (method === 'GET' && path.startsWith('/assets/')) {
      if (!files.send(path.slice('/assets'.length), res, req.headers['if-none-match'])) throw new HttpError(404, 'no such file');
      return;
    }
    if (method === 'POST') {
      checkPost(req, ctx.session);
    } else if (ctx.session === undefined && (method === 'GET' || method === 'HEAD')) {
      ctx.session = sessions.create();
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

  const server = createServer({ requestTimeout: 60_000, headersTimeout: 15_000, maxHeaderSize: 16 * 1024 }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof HttpError) {
        sendError(res, err.status, err.message);
      } else {
        log.error(`${req.method} ${req.url}: ${messageOf(err)}`);
        sendError(res, 500, `internal error: ${messageOf(err).split('\n')[0]}`);
      }
    });
  });
  // Malformed HTTP: a plain 400 line, not Node's default.
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'the port is taken' : err.code === 'EADDRNOTAVAIL' ? 'no such address on this machine' : err.message;
      reject(new CtlError('RUNTIME', `cannot listen on ${options.host}:${options.port}: ${why}`));
    });
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostInUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostInUrl}:${address.port}/`,
    server,
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
