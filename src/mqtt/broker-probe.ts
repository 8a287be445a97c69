/**
 * A fresh connection to the broker, made only to see whether the broker takes one: after the
 * broker closed our connection right after accepting it, a broker that accepts another client at
 * once is running (it did not restart), so the close was about our client id. The probe has a
 * client id of its own, a clean session and no will, and disconnects as soon as it is accepted.
 */
import type { MqttClient } from 'mqtt';
import { randomBytes } from 'node:crypto';
import type { ResolvedBroker } from './broker-options.js';
import { after, systemTime, type Time } from '../core/time.js';
import { connectBrokerClient } from './broker-client.js';

export interface ProbeOptions {
  readonly broker: ResolvedBroker;
  /** The id of the client whose close is being looked into; the probe's id starts with it. */
  readonly clientId: string;
  /** 5 or 4 (3.1.1): what the broker speaks with us. */
  readonly protocolVersion: 4 | 5;
  /** How long to wait for the broker's CONNACK. */
  readonly timeoutMs: number;
  /** Clock of the timeout; default systemTime. */
  readonly time?: Time;
}

/** Resolves true when the broker accepted the probe's connection in time; never rejects. */
export function brokerAcceptsProbe(options: ProbeOptions): Promise<boolean> {
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
    } catch {
      resolve(false);
      return;
    }
    let settled = false;
    const settle = (accepted: boolean): void => {
      if (settled) return;
      settled = true;
      timer.cancel();
      client.end(!accepted);
      resolve(accepted);
    };
    const timer = after(options.time ?? systemTime, options.timeoutMs, () => settle(false)).unref();
    client.once('connect', () => settle(true));
    client.on('error', () => settle(false));
    client.once('close', () => settle(false));
  });
}
