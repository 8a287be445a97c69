/**
 * Finding retained topics of controls this device no longer has (a channel removed from the
 * config since the last run), so they can be cleared at start (conventions A.7, RemoveUnusedControls).
 *
 * The broker replays retained messages right after a subscription. To know when that burst is
 * over, the scan also subscribes to a private marker topic and publishes one message to it: the
 * broker keeps the order of messages to one session, so the marker arrives after the replay.
 */
import type { ISubscriptionMap } from 'mqtt';
import { CONTROL_LEGACY_METAS, type DeviceTopics } from './topics.js';

export class StaleControlScan {
  private readonly retained: string[] = [];
  private settle: ((stale: string[] | undefined) => void) | undefined;
  /** The stale topics once the marker came back; undefined if the scan was aborted. */
  readonly result: Promise<string[] | undefined>;

  constructor(
    private readonly topics: DeviceTopics,
    /** A topic only this scan uses. */
    readonly markerTopic: string,
    /** Whether the device currently has this control. */
    private readonly hasControl: (controlId: string) => boolean,
  ) {
    this.result = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  /**
   * What to subscribe: values, JSON metas and legacy metas of all controls of the device (not
   * `/on`, whose live commands must not arrive twice through overlapping filters), and the marker.
   */
  subscriptions(): ISubscriptionMap {
    const controls = this.topics.control('+');
    // QoS 0: the replay is read once and a lost connection aborts the scan anyway, so
    // acknowledgements buy nothing; and a broker may drop a persistent session that unsubscribes
    // while QoS 1 deliveries are in flight (aedes 1.2 does). The marker shares the QoS so the
    // replay and the marker travel in one ordered stream.
    // nl (MQTT 5 "no local"): our own publishes need not come back; the marker must.
    return {
      [controls]: { qos: 0, nl: true },
      [`${controls}/meta`]: { qos: 0, nl: true },
      [`${controls}/meta/+`]: { qos: 0, nl: true },
      [this.markerTopic]: { qos: 0 },
    };
  }

  /** Filters to unsubscribe afterwards. */
  filters(): string[] {
    return Object.keys(this.subscriptions());
  }

  /** Offers an incoming message; true when the scan consumed it. */
  offer(topic: string, retained: boolean): boolean {
    if (topic === this.markerTopic) {
      this.finish(this.retained.filter((t) => this.isStale(t)));
      return true;
    }
    const rest = this.topics.parseControlTopic(topic)?.rest;
    // Only what the filters cover (value, meta, meta/<key>): a retained /on replayed by the
    // device's own /on subscription is not the scan's.
    if (retained && rest !== undefined && /^(meta(\/[^/]+)?)?$/.test(rest)) {
      this.retained.push(topic);
      return true;
    }
    return false;
  }

  /**
   * Ends the scan with the retained messages collected so far, for when the marker does not come
   * back (a broker whose ACL refuses the marker topic): the replay follows the SUBACK at once, so
   * it is long over by then. True when the scan was still running.
   */
  finishWithCollected(): boolean {
    const running = this.settle !== undefined;
    this.finish(this.retained.filter((t) => this.isStale(t)));
    return running;
  }

  /** Gives up (the connection dropped); `result` resolves undefined. */
  abort(): void {
    this.finish(undefined);
  }

  private finish(stale: string[] | undefined): void {
    const settle = this.settle;
    this.settle = undefined;
    settle?.(stale);
  }

  /**
   * Stale: any topic of a control the device does not have; for a control it has, a legacy meta
   * subtopic this layer does not publish (e.g. `meta/units` of an older driver). Values and `/on`
   * of current controls are never touched.
   */
  private isStale(topic: string): boolean {
    const parsed = this.topics.parseControlTopic(topic);
    if (parsed === undefined) return false;
    if (!this.hasControl(parsed.controlId)) return true;
    if (!parsed.rest.startsWith('meta/')) return false;
    return !(CONTROL_LEGACY_METAS as readonly string[]).includes(parsed.rest.slice('meta/'.length));
  }
}
