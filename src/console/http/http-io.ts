/**
 * Reading requests and writing answers: bodies are read up to a limit (a bigger one is refused
 * with 413 before it is all in memory), JSON bodies must be JSON objects, and every failure a
 * client can cause is an HttpError with a status and one line of text for the page, never a
 * stack trace.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { answer } from './answers.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Headers every answer carries: no framing, no sniffing, no referrer, scripts only from us. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // Styles only from console.css: the pages set no style attribute (test/integration/console/console-csp-browser).
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Reads the whole body, at most `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(new HttpError(413, answer('request.too-large', { limit })));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new HttpError(413, answer('request.too-large', { limit })));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (err) => {
      if (!failed) reject(new HttpError(400, `request body could not be read: ${err.message}`));
    });
  });
}

/** A JSON object body (`Content-Type: application/json`), at most `limit` bytes. */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(415, 'the request body must be application/json');
  const body = await readBody(req, limit);
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw new HttpError(400, 'the request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, 'the request body must be a JSON object');
  return value as Record<string, unknown>;
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(body);
}

/** An error answer: `{ "error": "<one line>" }`. */
export function sendError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, { error: message });
}

/** A percent-encoded path segment, decoded. @throws HttpError 400 for a malformed `%` escape (`%ZZ`). */
export function decodePathPart(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HttpError(400, `malformed percent-encoding in the path: ${JSON.stringify(text.slice(0, 100))}`);
  }
}

export function redirect(res: ServerResponse, location: string, headers: Record<string, string> = {}): void {
  res.writeHead(303, { ...SECURITY_HEADERS, Location: location, 'Cache-Control': 'no-store', ...headers });
  res.end();
}

/**
 * Writes `text` (a whole answer) and destroys the socket once it is flushed, or after a second at
 * the latest: a half-close would leave the connection open as long as the client likes.
 */
export function closeWith(socket: Socket, text: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(text, () => socket.destroy());
  setTimeout(() => socket.destroy(), 1000).unref();
}
