/**
 * The console's password: stored as a salted scrypt hash in one line
 * (`scrypt$N$r$p$<salt b64>$<hash b64>`), never in clear. `--set-password` writes it; the login
 * checks a candidate in constant time. scrypt runs on the thread pool, so a login never holds
 * the event loop.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../core/persist/atomic-write.js';
import { CtlError, messageOf } from '../../core/errors.js';

/** 2^14 x 8 x 1: ~16 MiB and ~50 ms per check on a small ARM board; enough against guessing. */
const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Passwords longer than this are refused (a huge one would only cost scrypt time). */
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { ...params, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Why `password` cannot be used, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < 8) return 'the password must have at least 8 characters';
  if (password.length > MAX_PASSWORD_LENGTH) return `the password must have at most ${MAX_PASSWORD_LENGTH} characters`;
  return undefined;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** True when `password` matches `stored` (a line made by hashPassword); false for a malformed line. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.trim().split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt' || password.length > MAX_PASSWORD_LENGTH) return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (![N, r, p].every(Number.isInteger) || expected.length !== KEY_LENGTH) return false;
  try {
    const key = await derive(password, salt, { N, r, p });
    return timingSafeEqual(key, expected);
  } catch {
    return false;
  }
}

/** The stored hash, or null when no password was set (the file does not exist). */
export async function readPasswordHash(file: string): Promise<string | null> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    if (!text.startsWith('scrypt$')) throw new CtlError('RUNTIME', `${file}: not a password hash made by --set-password`);
    return text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if (err instanceof CtlError) throw err;
    throw new CtlError('RUNTIME', `cannot read the password file ${file}: ${messageOf(err)}`);
  }
}

/** Hashes `password` and replaces the file (mode 0600: the hash is still worth guarding). */
export async function writePasswordHash(file: string, password: string): Promise<void> {
  const problem = passwordProblem(password);
  if (problem !== undefined) throw new CtlError('USAGE', problem);
  await writeFileAtomic(file, (await hashPassword(password)) + '\n', { mode: 0o600 });
}
