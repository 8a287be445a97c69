/**
 * A test subscriber that records what the broker delivers: topic, payload, retain flag, QoS and
 * order. It speaks MQTT 5 and subscribes with "retain as published", so the retain flag is the
 * one the publisher set (live messages included), not only that of retained replays. On a broker
 * that speaks only 3.1.1 (aedes, the fallback when mosquitto is not installed) it connects with
 * 3.1.1, where live messages arrive with the retain flag cleared.
 */
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { randomBytes } from 'node:crypto';

/**
 * Connects with MQTT 5, or with 3.1.1 when the broker refuses 5 (CONNACK "unacceptable protocol
 * version", or a close without any CONNACK as RabbitMQ before 3.13 answers); a `protocolVersion`
 * in the options is used as it is.
 */
export async function connectTestClient(url: string, options: IClientOptions = {}): Promise<MqttClient> {
  if (options.protocolVersion !== undefined) return mqtt.connectAsync(url, options, false);
  try {
    return await mqtt.connectAsync(url, { ...options, protocolVersion: 5 }, false);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    // 1: the 3.1.1 CONNACK code a 3.1.1 broker answers a version-5 CONNECT with; 132: MQTT 5's;
    // no code: mqtt.js's "Couldn't connect to server", a close with no socket error and no CONNACK.
    if (code !== 1 && code !== 132 && code !== undefined) throw err;
    return mqtt.connectAsync(url, { ...options, protocolVersion: 4 }, false);
  }
}

export interface Recorded {
  readonly topic: string;
  readonly payload: string;
  readonly retain: boolean;
  readonly qos: number;
}

export class MqttRecorder {
  readonly messages: Recorded[] = [];
  private readonly listeners = new Set<() => void>();

  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => {
      this.messages.push({ topic, payload: payload.toString('utf8'), retain: packet.retain === true, qos: packet.qos });
      for (const listener of [...this.listeners]) listener();
    });
  }

  /** Connects and subscribes (QoS 2, retain as published); resolves after the SUBACK. */
  static async start(url: string, filters: string[] = ['#'], options: IClientOptions = {}): Promise<MqttRecorder> {
    const client = await connectTestClient(url, { reconnectPeriod: 200, clientId: `rec-${randomBytes(4).toString('hex')}`, ...options });
    const recorder = new MqttRecorder(client);
    await client.subscribeAsync(Object.fromEntries(filters.map((f) => [f, { qos: 2 as const, rap: true }])));
    return recorder;
  }

  /** Index of the next message: `since(mark)` gives what came after. */
  mark(): number {
    return this.messages.length;
  }

  since(mark: number): Recorded[] {
    return this.messages.slice(mark);
  }

  /** The first message from `from` on that matches, waiting up to `timeoutMs`. */
  waitFor(match: (m: Recorded) => boolean, options: { from?: number; timeoutMs?: number; what?: string } = {}): Promise<Recorded> {
    const from = options.from ?? 0;
    const timeoutMs = options.timeoutMs ?? 5000;
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.messages.slice(from).find(match);
        if (found === undefined) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        const seen = this.messages
          .slice(from)
          .map((m) => `${m.topic}=${JSON.stringify(m.payload)}`)
          .join('\n  ');
        reject(new Error(`timed out waiting for ${options.what ?? 'a message'}; seen:\n  ${seen}`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      const listener = (): void => {
        check();
      };
      if (check()) return;
      this.listeners.add(listener);
    });
  }

  /** Waits for a message on `topic` (with `payload`, when given). */
  waitForTopic(topic: string, payload?: string, options: { from?: number; timeoutMs?: number } = {}): Promise<Recorded> {
    return this.waitFor((m) => m.topic === topic && (payload === undefined || m.payload === payload), {
      ...options,
      what: `${topic}${payload === undefined ? '' : ` = ${JSON.stringify(payload)}`}`,
    });
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}

/**
 * The retained messages a fresh subscriber of `filter` gets, as topic → payload. Knows the replay
 * is over when a marker message it publishes to itself comes back (the broker keeps the order).
 */
export async function retainedSnapshot(url: string, filter = '#', options: IClientOptions = {}): Promise<Map<string, string>> {
  const marker = `ctl-test/marker/${randomBytes(6).toString('hex')}`;
  const recorder = await MqttRecorder.start(url, [filter, marker], options);
  try {
    await recorder.client.publishAsync(marker, 'x', { qos: 1 });
    await recorder.waitForTopic(marker);
    const out = new Map<string, string>();
    for (const m of recorder.messages) if (m.retain && m.topic !== marker) out.set(m.topic, m.payload);
    return out;
  } finally {
    await recorder.close();
  }
}

/** Publishes one message from a short-lived client (QoS 1 by default) and waits for the PUBACK. */
export async function publishOnce(
  url: string,
  topic: string,
  payload: string,
  options: { retain?: boolean; qos?: 0 | 1 | 2; client?: IClientOptions } = {},
): Promise<void> {
  const client = await connectTestClient(url, { reconnectPeriod: 0, ...options.client });
  try {
    await client.publishAsync(topic, payload, { qos: options.qos ?? 1, retain: options.retain ?? false });
  } finally {
    await client.endAsync();
  }
}
