/**
 * Plain HTTP to the console, as a page or an attacker speaks it: one request on its own connection
 * (parallel requests really are parallel), from `from` when given (any 127.0.0.0/8 address is this
 * machine's on Linux: one test can be many clients), and the session a page starts with.
 */
import { Agent, request } from 'node:http';

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export function http(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: new Agent({ keepAlive: false }),
        ...(options.from === undefined ? {} : { localAddress: options.from }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The session cookie and CSRF token a `GET /api/session` answer gives. */
export function sessionOf(answer: Answer): { cookie: string; csrf: string } {
  return {
    cookie: String(answer.headers['set-cookie']).split(';')[0]!,
    csrf: (JSON.parse(answer.body) as { csrfToken: string }).csrfToken,
  };
}

/** A session cookie and its CSRF token, as a page gets them (from `from` when given). */
export async function session(base: string, from?: string): Promise<{ cookie: string; csrf: string }> {
  return sessionOf(await http(`${base}api/session`, from === undefined ? {} : { from }));
}
