/**
 * Runs the demo (`node dist/src/demo/main.js`, what `npm start` runs after the build) as a child
 * process for a test: free ports, its own TMPDIR (so the test sees what the demo leaves behind),
 * output collected, killed and cleaned up after the test whatever happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../helpers/free-port.js';

export const DEMO_MAIN = fileURLToPath(new URL('../../../src/demo/main.js', import.meta.url));

export interface DemoProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly wsPort: number;
  /** The demo's TMPDIR: its temp dir is made here, and must be gone after it exits. */
  readonly tmp: string;
  stdout(): string;
  stderr(): string;
  /** Resolves when `text` appears on stdout (rejects after `timeoutMs` or when the demo exits). */
  waitForStdout(text: string, timeoutMs?: number): Promise<void>;
  /** Exit code (null: killed) once it exited. */
  readonly exited: Promise<number | null>;
  /** What is left in the demo's TMPDIR. */
  leftovers(): string[];
}

export async function startDemo(
  t: TestContext,
  args: readonly string[] = [],
  ports?: { port: number; wsPort: number },
): Promise<DemoProcess> {
  const port = ports?.port ?? (await freePort());
  const wsPort = ports?.wsPort ?? (await freePort());
  const tmp = mkdtempSync(join(tmpdir(), 'ctl-demo-test-'));
  const consolePort = await freePort();
  const child = spawn(
    process.execPath,
    [DEMO_MAIN, '--port', String(port), '--ws-port', String(wsPort), '--console-port', String(consolePort), ...args],
    {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const l of [...listeners]) l();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  let done = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      done = true;
      for (const l of [...listeners]) l();
      resolve(code);
    }),
  );
  t.after(async () => {
    if (!done) {
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(tmp, { recursive: true, force: true });
  });
  return {
    child,
    port,
    wsPort,
    tmp,
    stdout: () => out,
    stderr: () => err,
    exited,
    leftovers: () => readdirSync(tmp),
    waitForStdout(text, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (out.includes(text)) finish();
          else if (done) finish(new Error(`the demo exited before printing ${JSON.stringify(text)}:\n${out}\n${err}`));
        };
        const timer = setTimeout(() => finish(new Error(`no ${JSON.stringify(text)} within ${timeoutMs} ms:\n${out}\n${err}`)), timeoutMs);
        const finish = (error?: Error): void => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve();
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** A port on 127.0.0.1 something else listens on, for the rest of the test. */
export async function takenPort(t: TestContext): Promise<number> {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
  const address = blocker.address();
  return typeof address === 'object' && address !== null ? address.port : 0;
}
