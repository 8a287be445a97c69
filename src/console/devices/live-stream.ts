/**
 * The devices page's live updates: Server-Sent Events. Each open page gets the whole picture when
 * it connects and again after changes, at most every `intervalMs` (a pulsing meter changes
 * several controls a second; one serialized picture is shared by every page). A comment line
 * every 25 s keeps proxies from closing an idle stream. The browser reconnects by itself.
 *
 * A page that stops reading (a laptop asleep, a stuck tab) must not make the console buffer every
 * picture: while a stream's socket does not take what was written, nothing more is queued for
 * it, and when it drains it gets the latest picture only (each is complete, the ones between are
 * worth nothing). So a stream holds at most one picture in memory. A stream still blocked at two
 * keepalive ticks in a row is closed; its page reconnects when it wakes.
 */
import type { ServerResponse } from 'node:http';
import type { DeviceFeed } from './device-feed.js';
import { SECURITY_HEADERS } from '../http/http-io.js';

/** More open pages than this is a script, not a person: the next one is refused. */
export const MAX_STREAMS = 32;
const KEEPALIVE_MS = 25_000;

interface StreamClient {
  readonly res: ServerResponse;
  /** Its socket has not taken the last write yet ('drain' will say when). */
  blocked: boolean;
  /** A newer picture was made while it was blocked. */
  behind: boolean;
  /** Keepalive ticks seen while blocked. */
  blockedTicks: number;
}

export interface LiveStreamStats {
  readonly streams: number;
  /** Bytes written to the streams and not yet taken by their sockets. */
  readonly backlogBytes: number;
  /** Pictures made since the start. */
  readonly pictures: number;
}

export class LiveStream {
  private readonly clients = new Set<StreamClient>();
  private timer: NodeJS.Timeout | undefined;
  private keepalive: NodeJS.Timeout | undefined;
  private readonly unsubscribe: () => void;
  private pictures = 0;

  constructor(
    private readonly feed: DeviceFeed,
    private readonly intervalMs = 150,
    private readonly keepaliveMs = KEEPALIVE_MS,
  ) {
    this.unsubscribe = feed.onChange(() => this.schedule());
  }

  get size(): number {
    return this.clients.size;
  }

  stats(): LiveStreamStats {
    let backlogBytes = 0;
    for (const client of this.clients) backlogBytes += client.res.writableLength;
    return { streams: this.clients.size, backlogBytes, pictures: this.pictures };
  }

  /** Starts a stream on `res`; false when too many are open. */
  open(res: ServerResponse): boolean {
    if (this.clients.size >= MAX_STREAMS) return false;
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    });
    const client: StreamClient = { res, blocked: false, behind: false, blockedTicks: 0 };
    this.clients.add(client);
    res.on('close', () => {
      this.clients.delete(client);
      if (this.clients.size === 0) this.stopKeepalive();
    });
    res.on('drain', () => {
      client.blocked = false;
      client.blockedTicks = 0;
      if (client.behind) {
        client.behind = false;
        this.send(client, this.frame());
      }
    });
    this.send(client, this.frame());
    this.keepalive ??= setInterval(() => this.tick(), this.keepaliveMs);
    this.keepalive.unref();
    return true;
  }

  close(): void {
    this.unsubscribe();
    clearTimeout(this.timer);
    this.stopKeepalive();
    for (const client of this.clients) client.res.end();
    this.clients.clear();
  }

  private send(client: StreamClient, text: string): void {
    if (client.blocked) {
      client.behind = true;
      return;
    }
    if (!client.res.write(text)) client.blocked = true;
  }

  private tick(): void {
    for (const client of this.clients) {
      if (!client.blocked) {
        this.send(client, ': keepalive\n\n');
      } else if (++client.blockedTicks >= 2) {
        client.res.destroy();
      }
    }
  }

  private stopKeepalive(): void {
    clearInterval(this.keepalive);
    this.keepalive = undefined;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.clients.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const frame = this.frame();
      for (const client of this.clients) this.send(client, frame);
    }, this.intervalMs);
  }

  private frame(): string {
    this.pictures++;
    return `event: devices\ndata: ${JSON.stringify(this.feed.snapshot())}\n\n`;
  }
}
