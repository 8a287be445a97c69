/**
 * A real RabbitMQ node with its MQTT plugin for tests: Debian's `rabbitmq-server`, run as a child
 * process of the test with everything of its own in a temp directory (node name, AMQP,
 * distribution and MQTT ports, Mnesia and log directories, Erlang cookie) and its own `epmd` on
 * a free port (`ERL_EPMD_PORT`), so it neither needs nor touches a system node. The plugin is
 * enabled with `rabbitmq-plugins --offline enable rabbitmq_mqtt` into the node's own
 * enabled-plugins file. Stop/start keeps the node's data (RabbitMQ's retained store is on disk).
 *
 *   if (rabbitMqMissing) t.skip(rabbitMqMissing);
 *   const broker = await startRabbitMq();  t.after(() => broker.close());
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canConnect, freePort } from './free-port.js';
import { waitUntil } from './wait-until.js';

const RABBITMQ_BIN = process.env['CTL_TEST_RABBITMQ_BIN'] ?? '/usr/lib/rabbitmq/bin';
const EPMD = '/usr/bin/epmd';
/** A cold start on a busy 2-core machine takes 15-30 s; the first one also creates the database. */
const START_TIMEOUT_MS = 120_000;

/** Why RabbitMQ tests cannot run here (printed when they skip), or false when they can. */
export const rabbitMqMissing: string | false = (() => {
  for (const path of [join(RABBITMQ_BIN, 'rabbitmq-server'), join(RABBITMQ_BIN, 'rabbitmq-plugins'), EPMD]) {
    if (!existsSync(path)) return `${path} is missing: rabbitmq-server is not installed (see .ci/run)`;
  }
  return false;
})();

export interface RabbitMq {
  /** The MQTT listener on 127.0.0.1. */
  readonly port: number;
  /** `mqtt://127.0.0.1:<port>`. */
  readonly url: string;
  readonly dir: string;
  /** The version of the `rabbit` application, e.g. `3.10.8`. */
  readonly version: string;
  /** How long the last start took, until the MQTT listener accepted a connection (ms). */
  readonly lastStartMs: number;
  /** Stops the node (SIGTERM: a clean shutdown); its data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same ports and data. */
  start(): Promise<void>;
  /** Deletes the retained message store (the node must be stopped): the next start has none. */
  forgetRetained(): void;
  /** The node's log so far. */
  log(): string;
  /** Stops the node and its epmd and removes the directory. */
  close(): Promise<void>;
}

export async function startRabbitMq(): Promise<RabbitMq> {
  if (rabbitMqMissing) throw new Error(rabbitMqMissing);
  const dir = mkdtempSync(join(tmpdir(), 'ctl-rabbitmq-'));
  const node = new RabbitMqProcess(dir);
  try {
    await node.firstStart();
    return node;
  } catch (err) {
    await node.close();
    throw err;
  }
}

class RabbitMqProcess implements RabbitMq {
  port = 0;
  version = '';
  lastStartMs = 0;
  private amqpPort = 0;
  private distPort = 0;
  private epmdPort = 0;
  private epmd: ChildProcess | undefined;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private output = '';

  /** If the test process ends without close() (a crash, a cancelled file), the node must not outlive it. */
  private readonly killLeftovers = (): void => {
    for (const pid of [this.beamPid(), this.child?.pid, this.epmd?.pid]) {
      try {
        if (pid !== undefined) process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };

  constructor(readonly dir: string) {
    process.once('exit', this.killLeftovers);
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  get nodeName(): string {
    return `ctl-test-${this.port}@localhost`;
  }

  async firstStart(): Promise<void> {
    [this.port, this.amqpPort, this.distPort, this.epmdPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    if (new Set([this.port, this.amqpPort, this.distPort, this.epmdPort]).size < 4) {
      [this.amqpPort, this.distPort] = [await freePort(), await freePort()];
    }
    writeFileSync(
      join(this.dir, 'rabbitmq.conf'),
      [
        `listeners.tcp.default = 127.0.0.1:${this.amqpPort}`,
        `mqtt.listeners.tcp.default = 127.0.0.1:${this.port}`,
        'mqtt.allow_anonymous = true',
        // A shared test machine may have little free disk or memory: no alarm should block publishers.
        'disk_free_limit.absolute = 1MB',
        'vm_memory_high_watermark.relative = 0.9',
        '',
      ].join('\n'),
    );
    await this.startEpmd();
    const plugins = spawnSync(join(RABBITMQ_BIN, 'rabbitmq-plugins'), ['--offline', 'enable', 'rabbitmq_mqtt'], {
      env: this.env(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (plugins.status !== 0)
      throw new Error(`rabbitmq-plugins enable rabbitmq_mqtt failed: ${plugins.stderr || plugins.stdout || plugins.error?.message}`);
    await this.start();
    this.version = /Starting RabbitMQ ([\d.]+)/.exec(this.log())?.[1] ?? 'unknown';
  }

  async start(): Promise<void> {
    if (this.child !== undefined) return;
    const started = performance.now();
    // The script runs the Erlang VM as its child and stops it cleanly on SIGTERM.
    const child = spawn(join(RABBITMQ_BIN, 'rabbitmq-server'), [], { env: this.env(), cwd: this.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer): void => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    let dead = false;
    void this.exited.then(() => {
      dead = true;
      if (this.child === child) this.child = undefined;
    });
    const listening = async (): Promise<boolean> => {
      if (dead) throw new Error('the node ended');
      return canConnect(this.port);
    };
    try {
      await waitUntil(listening, 'the MQTT listener', { timeoutMs: START_TIMEOUT_MS, intervalMs: 100 });
    } catch {
      this.killNode(child);
      await this.exited;
      this.child = undefined;
      throw new Error(
        `RabbitMQ did not start its MQTT listener on port ${this.port}:\n${this.output.slice(-1500)}\n${this.log().slice(-1500)}`,
      );
    }
    this.lastStartMs = performance.now() - started;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => this.killNode(child), 30_000);
    await this.exited;
    clearTimeout(timer);
    this.child = undefined;
  }

  forgetRetained(): void {
    if (this.child !== undefined) throw new Error('forgetRetained: the node is running');
    const nodeDir = join(this.dir, 'mnesia', this.nodeName);
    const stores = existsSync(nodeDir) ? readdirSync(nodeDir).filter((name) => /retained/.test(name)) : [];
    if (stores.length === 0) throw new Error(`no retained message store in ${nodeDir}`);
    for (const name of stores) rmSync(join(nodeDir, name), { recursive: true, force: true });
  }

  log(): string {
    const logDir = join(this.dir, 'log');
    if (!existsSync(logDir)) return '';
    return readdirSync(logDir)
      .filter((name) => name.endsWith('.log'))
      .map((name) => readFileSync(join(logDir, name), 'utf8'))
      .join('\n');
  }

  async close(): Promise<void> {
    process.removeListener('exit', this.killLeftovers);
    await this.stop();
    const epmd = this.epmd;
    if (epmd !== undefined && epmd.exitCode === null && epmd.signalCode === null) {
      const gone = new Promise((resolve) => epmd.once('exit', resolve));
      epmd.kill('SIGTERM');
      await gone;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** SIGKILL to the VM and its start script (a SIGKILLed script would leave the VM running). */
  private killNode(child: ChildProcess): void {
    const beam = this.beamPid();
    try {
      if (beam !== undefined) process.kill(beam, 'SIGKILL');
    } catch {
      // already gone
    }
    child.kill('SIGKILL');
  }

  /** The Erlang VM's pid (the start script runs it as its child and forwards SIGTERM to it). */
  private beamPid(): number | undefined {
    const file = join(this.dir, 'rabbitmq.pid');
    const pid = existsSync(file) ? Number.parseInt(readFileSync(file, 'utf8'), 10) : Number.NaN;
    return Number.isInteger(pid) && this.child !== undefined ? pid : undefined;
  }

  /**
   * An epmd of our own: the node registers there, and the CLI tools find it there. Waited for,
   * since an Erlang VM that finds no epmd on its port starts one as a daemon nobody would stop.
   */
  private async startEpmd(): Promise<void> {
    const epmd = spawn(EPMD, ['-port', String(this.epmdPort)], { stdio: 'ignore' });
    this.epmd = epmd;
    await waitUntil(
      async () => {
        if (epmd.exitCode !== null) throw new Error(`epmd ended with ${epmd.exitCode} before it listened on port ${this.epmdPort}`);
        return canConnect(this.epmdPort);
      },
      `epmd on port ${this.epmdPort}`,
      { timeoutMs: 10_000, intervalMs: 20 },
    );
  }

  private env(): NodeJS.ProcessEnv {
    const d = this.dir;
    return {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      LANG: 'C.UTF-8',
      // The Erlang cookie the node and the CLI tools share lives in $HOME.
      HOME: d,
      ERL_EPMD_PORT: String(this.epmdPort),
      RABBITMQ_NODENAME: this.nodeName,
      RABBITMQ_USE_LONGNAME: 'false',
      RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
      RABBITMQ_NODE_PORT: String(this.amqpPort),
      RABBITMQ_DIST_PORT: String(this.distPort),
      RABBITMQ_MNESIA_BASE: join(d, 'mnesia'),
      RABBITMQ_LOG_BASE: join(d, 'log'),
      RABBITMQ_CONFIG_FILE: join(d, 'rabbitmq.conf'),
      RABBITMQ_ADVANCED_CONFIG_FILE: join(d, 'advanced.config'),
      RABBITMQ_CONF_ENV_FILE: join(d, 'rabbitmq-env.conf'),
      RABBITMQ_ENABLED_PLUGINS_FILE: join(d, 'enabled_plugins'),
      RABBITMQ_PID_FILE: join(d, 'rabbitmq.pid'),
    };
  }
}
