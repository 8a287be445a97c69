/**
 * What the broker tests share: the GPIO service's sim rig pointed at a broker of the test's
 * choosing, the topics a run published, and the retained messages a fresh subscriber of exact
 * topics gets (RabbitMQ before 3.12 replays retained messages only to subscriptions without
 * wildcards, so a snapshot of `#` would be empty there).
 */
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { MqttRecorder } from '../../helpers/mqtt-recorder.js';
import { waitUntil } from '../../helpers/wait-until.js';
import type { GpioServiceRig } from '../../scenarios/gpio/rig.js';
import { simRig } from '../../scenarios/gpio/sim-rig.js';

/** The sim rig with the service and the scenario's subscribers on `brokerUrl`. */
export async function simRigOn(t: TestContext, brokerUrl: string): Promise<GpioServiceRig & { simDir: string }> {
  return { ...(await simRig(t)), brokerUrl };
}

/** Topic → last non-empty payload of what a recorder saw (the retained state the publisher left). */
export function lastPayloads(recorder: MqttRecorder, from = 0): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of recorder.since(from)) {
    if (m.payload === '') out.delete(m.topic);
    else out.set(m.topic, m.payload);
  }
  return out;
}

/**
 * The retained messages a new client subscribed to exactly `topics` is given, as topic →
 * payload; waits until each of them came (an error names those that did not).
 */
export async function retainedOfTopics(url: string, topics: readonly string[], timeoutMs = 15_000): Promise<Map<string, string>> {
  const recorder = await MqttRecorder.start(url, [...topics], { clientId: `snap-${randomBytes(4).toString('hex')}` });
  try {
    const got = (): Map<string, string> => new Map(recorder.messages.filter((m) => m.retain).map((m) => [m.topic, m.payload]));
    try {
      await waitUntil(() => topics.every((topic) => got().has(topic)), 'the retained message of every topic', {
        timeoutMs,
        intervalMs: 20,
      });
    } catch {
      const missing = topics.filter((topic) => !got().has(topic));
      throw new Error(`a fresh subscriber got no retained message on:\n  ${missing.join('\n  ')}`);
    }
    return got();
  } finally {
    await recorder.close();
  }
}
