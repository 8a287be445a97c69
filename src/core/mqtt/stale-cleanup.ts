/**
 * Finding retained topics of controls this device no longer has (a channel removed from the
 * config since the last run), so they can be cleared at start (conventions A.7, RemoveUnusedControls).
 *
 * The broker replays retained messages right after a subscription. To know when that burst is
 * over, the scan also subscribes to a private marker topic and publishes one message to it. With
 * mosquitto the marker arrives after the replay; aedes streams the replay from its store while
 * live messages overtake it, and a broker whose ACL refuses the marker topic never returns it. So
 * the scan ends once the marker is back (or `markerWaitMs` passed without it) AND no retained
 * message came for `settleMs`.
 */
import type { ISubscriptionMap } from 'mqtt';
import { CONTROL_LEGACY_METAS, type DeviceTopics } from './topics.js';

export interface ScanTiming {
  /** How long to wait for the marker before relying on the quiet period alone. */
  readonly markerWaitMs: number;
  /** The replay is taken as over after this long without a retained message. */
  readonly settleMs: number;
}

export const DEFAULT_SCAN_TIMING: ScanTiming = { markerWaitMs: 3000, settleMs: 1000 };

export class StaleControlScan {
  private readonly retained: string[] = [];
  private settle: ((stale: string[] | undefined) => void) | undefined;
  /** The marker came back, or its wait is over: the quiet period decides the end. */
  private waitingForQuiet = false;
  private markerTimer: NodeJS.Timeout | undefined;
  private quietTimer: NodeJS.Timeout | undefined;
  /** True when the scan ended without its marker (logged by the caller). */
  markerMissing = false;
  /** The stale topics once the replay is over; undefined if the scan was aborted. */
  readonly result: Promise<string[] | undefined>;

  constructor(
    private readonly topics: DeviceTopics,
    /** A topic only this scan uses. */
    readonly markerTopic: string,
    /** Whether the device currently has this control. */
    private readonly hasControl: (controlId: string) => boolean,
    private readonly timing: ScanTiming = DEFAULT_SCAN_TIMING,
  ) {
    this.result = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  /** Starts waiting for the marker (call once the subscriptions are made and the marker sent). */
  start(): void {
    if (this.settle === undefined || this.markerTimer !== undefined) return;
    this.markerTimer = setTimeout(() => {
      this.markerMissing = true;
      this.awaitQuiet();
    }, this.timing.markerWaitMs).unref();
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
      this.awaitQuiet();
      return true;
    }
    const rest = this.topics.parseControlTopic(topic)?.rest;
    // Only what the filters cover (value, meta, meta/<key>): a retained /on replayed by the
    // device's own /on subscription is not the scan's.
    if (retained && rest !== undefined && /^(meta(\/[^/]+)?)?$/.test(rest)) {
      this.retained.push(topic);
      if (this.waitingForQuiet) this.armQuiet();
      return true;
    }
    return false;
  }

  private awaitQuiet(): void {
    clearTimeout(this.markerTimer);
    this.waitingForQuiet = true;
    this.armQuiet();
  }

  private armQuiet(): void {
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.finish(this.retained.filter((t) => this.isStale(t))), this.timing.settleMs).unref();
  }

  /** Gives up (the connection dropped); `result` resolves undefined. */
  abort(): void {
    this.finish(undefined);
  }

  private finish(stale: string[] | undefined): void {
    clearTimeout(this.markerTimer);
    clearTimeout(this.quietTimer);
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
