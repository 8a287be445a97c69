/**
 * A real mosquitto for tests: its own process on free loopback ports, a generated config without
 * persistence, an optional TLS listener (CA, server and client certificates made with openssl)
 * and password file, a unix socket listener, stop/start on the same ports, and the broker's log
 * (`log_type all`), which shows every packet the clients send in order; extra config lines (a bridge).
 *
 *   const broker = await startMosquitto();  t.after(() => broker.close());
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canConnect, freePort } from './free-port.js';
import { makeCa } from './test-certificates.js';

export const MOSQUITTO_PATH = process.env['CTL_TEST_MOSQUITTO'] ?? '/usr/sbin/mosquitto';

/** False when mosquitto is not installed (tests then skip; `.ci/run` installs it). */
export function mosquittoAvailable(): boolean {
  return existsSync(MOSQUITTO_PATH);
}

export interface MosquittoOptions {
  /** Add a TLS listener with a generated CA; `requireClientCert` makes it ask for a client certificate. */
  tls?: boolean | { requireClientCert?: boolean };
  /** Users of a password file: on the TLS listener when there is one, else on the plain listener. */
  users?: Record<string, string>;
  /** Add a unix socket listener. */
  unixSocket?: boolean;
  /** Content of an ACL file for the plain listener (e.g. `topic readwrite /devices/#`). */
  acl?: string;
  /** Lines appended to the generated config, after the listeners (e.g. a bridge `connection`). */
  extraConfig?: string;
}

export interface TlsMaterial {
  ca: string;
  clientCert: string;
  clientKey: string;
}

export interface Mosquitto {
  /** Plain listener on 127.0.0.1. */
  readonly port: number;
  readonly url: string;
  readonly tlsPort: number | undefined;
  readonly tlsUrl: string | undefined;
  /** PEM files of the generated CA and a client certificate it signed. */
  readonly tls: TlsMaterial | undefined;
  readonly socketPath: string | undefined;
  readonly dir: string;
  /** True while the process runs. */
  readonly running: boolean;
  /** Stops the broker (retained messages and sessions are lost: no persistence). */
  stop(): Promise<void>;
  /** Starts it again on the same ports. */
  start(): Promise<void>;
  /** The broker's log so far. */
  log(): string;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

export async function startMosquitto(options: MosquittoOptions = {}): Promise<Mosquitto> {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-mosquitto-'));
  try {
    const broker = new MosquittoProcess(dir, options);
    await broker.firstStart();
    return broker;
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

class MosquittoProcess implements Mosquitto {
  port = 0;
  tlsPort: number | undefined;
  tls: TlsMaterial | undefined;
  socketPath: string | undefined;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private readonly logFile: string;

  constructor(
    readonly dir: string,
    private readonly options: MosquittoOptions,
  ) {
    this.logFile = join(dir, 'mosquitto.log');
    if (options.tls) this.tls = makeTlsMaterial(dir);
    if (options.unixSocket) this.socketPath = join(dir, 'mqtt.sock');
    if (options.users !== undefined) writePasswordFile(join(dir, 'passwd'), options.users);
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  get tlsUrl(): string | undefined {
    return this.tlsPort === undefined ? undefined : `mqtts://127.0.0.1:${this.tlsPort}`;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  async firstStart(): Promise<void> {
    // A free port can be taken between probing and binding; try a few.
    for (let attempt = 1; ; attempt++) {
      this.port = await freePort();
      if (this.tls !== undefined) this.tlsPort = await freePort();
      try {
        await this.start();
        return;
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
  }

  async start(): Promise<void> {
    if (this.child !== undefined) return;
    const confFile = join(this.dir, 'mosquitto.conf');
    writeFileSync(confFile, this.config());
    const child = spawn(MOSQUITTO_PATH, ['-c', confFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    let dead = false;
    void this.exited.then(() => {
      dead = true;
      if (this.child === child) this.child = undefined;
    });
    const deadline = Date.now() + 5000;
    while (!(await canConnect(this.port))) {
      if (dead || Date.now() > deadline) {
        child.kill('SIGKILL');
        await this.exited;
        throw new Error(`mosquitto did not start on port ${this.port}: ${stderr.trim() || this.log().slice(-500)}`);
      }
      await sleep(20);
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await this.exited;
    clearTimeout(timer);
    this.child = undefined;
  }

  log(): string {
    return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private config(): string {
    const lines = [
      'per_listener_settings true',
      'persistence false',
      `log_dest file ${this.logFile}`,
      'log_type all',
      'log_timestamp false',
      'connection_messages true',
      // A burst of commands to a service that a loaded machine slows down must reach it whole:
      // mosquitto's default queue of 1,000 messages per client would drop the newest (the one a
      // test waits for), which is the broker's setting, not the service's behaviour.
      'max_queued_messages 100000',
    ];
    // Started as root, mosquitto would switch to user "mosquitto", who cannot read our temp dir.
    if (process.getuid?.() === 0) lines.push('user root');
    const passwords = this.options.users !== undefined ? [`password_file ${join(this.dir, 'passwd')}`, 'allow_anonymous false'] : [];
    lines.push(`listener ${this.port} 127.0.0.1`);
    lines.push(...(this.tls === undefined && passwords.length > 0 ? passwords : ['allow_anonymous true']));
    if (this.options.acl !== undefined) {
      writeFileSync(join(this.dir, 'acl'), this.options.acl + '\n');
      lines.push(`acl_file ${join(this.dir, 'acl')}`);
    }
    if (this.tls !== undefined && this.tlsPort !== undefined) {
      const requireCert = typeof this.options.tls === 'object' && this.options.tls.requireClientCert === true;
      lines.push(
        `listener ${this.tlsPort} 127.0.0.1`,
        `cafile ${this.tls.ca}`,
        `certfile ${join(this.dir, 'server.pem')}`,
        `keyfile ${join(this.dir, 'server.key')}`,
        `require_certificate ${requireCert ? 'true' : 'false'}`,
        ...(passwords.length > 0 ? passwords : ['allow_anonymous true']),
      );
    }
    if (this.socketPath !== undefined) lines.push(`listener 0 ${this.socketPath}`, 'allow_anonymous true');
    if (this.options.extraConfig !== undefined) lines.push(this.options.extraConfig);
    return lines.join('\n') + '\n';
  }
}

/** mosquitto's `$6$` password hash: SHA-512 of password then salt, both parts base64. */
function writePasswordFile(path: string, users: Record<string, string>): void {
  const lines = Object.entries(users).map(([user, password]) => {
    const salt = randomBytes(12);
    const hash = createHash('sha512').update(password).update(salt).digest();
    return `${user}:$6$${salt.toString('base64')}$${hash.toString('base64')}`;
  });
  writeFileSync(path, lines.join('\n') + '\n', { mode: 0o600 });
}

function makeTlsMaterial(dir: string): TlsMaterial {
  makeCa(dir, 'ctl-mqtt test CA');
  return { ca: join(dir, 'ca.pem'), clientCert: join(dir, 'client.pem'), clientKey: join(dir, 'client.key') };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
