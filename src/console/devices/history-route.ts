/**
 * `GET /api/history/<device>/<control>`: a control's recent values for the devices page's charts
 * (see control-history.ts for what is kept). `?last=hour` gives only the last hour's one-minute
 * points, the small chart beside each value. Logged-in sessions only, like every other /api/ read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DeviceFeed } from './device-feed.js';
import { decodePathPart, HttpError, sendJson } from '../http/http-io.js';

interface RouteContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}

export function historyRoute<C extends RouteContext>(feed: DeviceFeed, requireAuth: (ctx: C) => unknown) {
  return {
    method: 'GET',
    pattern: /^\/api\/history\/([^/]+)\/([^/]+)$/,
    handle: (ctx: C, match: RegExpExecArray): void => {
      requireAuth(ctx);
      const last = new URL(ctx.req.url ?? '/', 'http://console').searchParams.get('last') ?? 'all';
      if (last !== 'all' && last !== 'hour')
        throw new HttpError(400, `last: expected hour or all, not ${JSON.stringify(last.slice(0, 20))}`);
      sendJson(ctx.res, 200, feed.historyOf(decodePathPart(match[1]!), decodePathPart(match[2]!), last));
    },
  };
}
