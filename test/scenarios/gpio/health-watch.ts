/**
 * What a scenario knows once the service has taken every edge the rig made: the service's health
 * document (`--health-interval 1`, src/service/health.ts) counts the edges it was handed, and it
 * goes out after every value those edges made. One subscriber gets the controls' values and the
 * health documents in the order the service sent them, so the values before a document that
 * counts N edges are all that N edges made: what must not have been published is shown absent by
 * a document that did come, not by a pause.
 */
import type { TestContext } from 'node:test';
import { MqttRecorder, type Recorded } from '../../helpers/mqtt-recorder.js';
import type { ScenarioRun } from './service-run.js';

/** The service's arguments for a health document every second. */
export const HEALTH_EVERY_SECOND = ['--health-interval', '1'];

export interface EdgesTaken {
  /** The edges the document counts (at least those waited for). */
  readonly edges: number;
  /** The values of a control the service sent before that document, the empty payloads of a cleanup left out. */
  values(control: string): string[];
}

export interface HealthWatch {
  /** Waits for a health document counting at least `edges` edges since the service started. */
  edgesTaken(edges: number): Promise<EdgesTaken>;
}

/** Subscribes before the service starts (the run's device id, no topic prefix). */
export async function watchHealth(t: TestContext, run: ScenarioRun): Promise<HealthWatch> {
  const healthTopic = `/ctl-mqtt/${run.deviceId}/health`;
  const recorder = await MqttRecorder.start(run.rig.brokerUrl, [`${run.controls}+`, healthTopic]);
  t.after(() => recorder.close());
  const edgesOf = (m: Recorded): number =>
    m.topic === healthTopic && m.payload !== '' ? (JSON.parse(m.payload) as { gpio: { edges: number } }).gpio.edges : -1;
  return {
    async edgesTaken(edges) {
      const document = await recorder.waitFor((m) => edgesOf(m) >= edges, {
        timeoutMs: 10_000 * run.rig.timeScale,
        what: `a health document counting ${edges} edges`,
      });
      const before = recorder.messages.slice(0, recorder.messages.indexOf(document));
      return {
        edges: edgesOf(document),
        values: (control) => before.filter((m) => m.topic === `${run.controls}${control}` && m.payload !== '').map((m) => m.payload),
      };
    },
  };
}
