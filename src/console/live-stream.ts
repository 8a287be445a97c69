/**
 * The devices page's live updates: Server-Sent Events. Each open page gets the whole picture when
 * it connects and again after changes, at most every `intervalMs` (a pulsing meter changes
 * several controls a second; one serialized picture is shared by every page). A comment line
 * every 25 s keeps proxies from closing an idle stream. The browser reconnects by itself.
 */
import type { ServerResponse } from 'node:http';
import type { DeviceFeed } from './device-feed.js';
import { SECURITY_HEADERS } from './http-io.js';

/** More open pages than this is a script, not a person: the next one is refused. */
export const MAX_STREAMS = 32;
const KEEPALIVE_MS = 25_000;

export class LiveStream {
  private readonly clients = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | undefined;
  private keepalive: NodeJS.Timeout | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly feed: DeviceFeed,
    private readonly intervalMs = 150,
  ) {
    this.unsubscribe = feed.onChange(() => this.schedule());
  }

  get size(): number {
    return this.clients.size;
  }

  /** Starts a stream on `res`; false when too many are open. */
  open(res: ServerResponse): boolean {
    if (this.clients.size >= MAX_STREAMS) return false;
    res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    res.write(this.frame());
    this.clients.add(res);
    res.on('close', () => {
      this.clients.delete(res);
      if (this.clients.size === 0) this.stopKeepalive();
    });
    this.keepalive ??= setInterval(() => {
      for (const client of this.clients) client.write(': keepalive\n\n');
    }, KEEPALIVE_MS);
    this.keepalive.unref();
    return true;
  }

  close(): void {
    this.unsubscribe();
    clearTimeout(this.timer);
    this.stopKeepalive();
    for (const client of this.clients) client.end();
    this.clients.clear();
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
      for (const client of this.clients) client.write(frame);
    }, this.intervalMs);
  }

  private frame(): string {
    return `event: devices\ndata: ${JSON.stringify(this.feed.snapshot())}\n\n`;
  }
}
