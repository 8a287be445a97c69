/**
 * A fresh connection to the broker, made only to see how the broker takes one, with a client id
 * of its own, a clean session and no will; it disconnects as soon as it has its answer. Two uses:
 * - after the broker closed our connection right after accepting it, a broker that accepts another
 *   client at once is running (it did not restart), so the close was about our client id;
 * - on a reload, new TLS material is tried this way before the working connection is dropped for
 *   it (tls-trial.ts).
 */
import type { MqttClient } from 'mqtt';
import { randomBytes } from 'node:crypto';
import type { ResolvedBroker } from './broker-options.js';
import { after, type Time } from '../core/time.js';
import { connectBrokerClient } from './broker-client.js';

export interface ProbeOptions {
  /** The broker, with the material to connect with. */
  readonly broker: ResolvedBroker;
  /** The id of the client the probe is made for; the probe's id starts with it. */
  readonly clientId: string;
  /** 5 or 4 (3.1.1): what the broker speaks with us. */
  readonly protocolVersion: 4 | 5;
  /** How long to wait for the broker's CONNACK. */
  readonly timeoutMs: number;
  /** Clock of the timeout. */
  readonly time: Time;
}

/** How the broker took the probe. */
export type ProbeAnswer =
  | { readonly kind: 'accepted' }
  /** A CONNACK that refuses it, with its reason code. */
  | { readonly kind: 'refused'; readonly code: number }
  /** No CONNACK: the socket's or the TLS handshake's error, the timeout's, or none (a plain close). */
  | { readonly kind: 'failed'; readonly error: Error | undefined };

/** Resolves true when the broker accepted the probe's connection in time; never rejects. */
export async function brokerAcceptsProbe(options: ProbeOptions): Promise<boolean> {
  return (await probeBroker(options)).kind === 'accepted';
}

/** Connects once and resolves with the broker's answer; never rejects. */
export function probeBroker(options: ProbeOptions): Promise<ProbeAnswer> {
  return new Promise((resolve) => {
    let client: MqttClient;
    try {
      client = connectBrokerClient({
        ...options.broker.clientOptions,
        // Starting with our id: a broker whose ACL allows client ids by prefix allows the probe too.
        clientId: `${options.clientId}-probe-${randomBytes(3).toString('hex')}`,
        protocolVersion: options.protocolVersion,
        clean: true,
        reconnectPeriod: 0,
        connectTimeout: options.timeoutMs,
        keepalive: 0,
        log: () => {},
      });
    } catch (err) {
      resolve({ kind: 'failed', error: err instanceof Error ? err : new Error(String(err)) });
      return;
    }
    let settled = false;
    const settle = (answer: ProbeAnswer): void => {
      if (settled) return;
      settled = true;
      timer.cancel();
      client.end(answer.kind !== 'accepted');
      resolve(answer);
    };
    const timer = after(options.time, options.timeoutMs, () =>
      settle({ kind: 'failed', error: new Error(`no answer within ${options.timeoutMs / 1000} s`) }),
    ).unref();
    client.once('connect', () => settle({ kind: 'accepted' }));
    // mqtt.js reports a CONNACK that refuses the connection as an error with the reason code.
    client.on('error', (err: Error & { code?: unknown }) =>
      settle(typeof err.code === 'number' ? { kind: 'refused', code: err.code } : { kind: 'failed', error: err }),
    );
    client.once('close', () => settle({ kind: 'failed', error: undefined }));
  });
}
