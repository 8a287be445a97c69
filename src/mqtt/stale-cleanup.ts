/**
 * Finding retained topics this device no longer publishes, so they can be cleared at start: the
 * topics of controls removed from the config since the last run (as libwbmqtt1's
 * RemoveUnusedControls does), and the Home Assistant discovery configs of entities it no longer has.
 * What is looked at and what is stale is a `ScanSelection`; the scan itself knows only when the
 * broker's replay is over.
 *
 * The broker replays retained messages right after a subscription. To know when that burst is
 * over, the scan also subscribes to a private marker topic and publishes one message to it. With
 * mosquitto the marker arrives after the replay; aedes streams the replay from its store while
 * live messages overtake it, and a broker whose ACL refuses the marker topic never returns it. So
 * the scan ends once the marker is back (or `markerWaitMs` passed without it) AND no retained
 * message came for `settleMs`.
 */
import { randomBytes } from 'node:crypto';
import type { ISubscriptionMap } from 'mqtt';
import { after, type Time, type Timer } from '../core/time.js';
import { CONTROL_LEGACY_METAS, type DeviceTopics } from './topics.js';

export interface ScanTiming {
  /** How long to wait for the marker before relying on the quiet period alone. */
  readonly markerWaitMs: number;
  /** The replay is taken as over after this long without a retained message. */
  readonly settleMs: number;
}

export const DEFAULT_SCAN_TIMING: ScanTiming = { markerWaitMs: 3000, settleMs: 1000 };

/** Which retained topics a scan reads, and which of those are stale. */
export interface ScanSelection {
  /** Filters whose retained replay the scan reads. */
  readonly filters: readonly string[];
  /** Whether a message on `topic` is one the filters select (anything else is not the scan's). */
  covers(topic: string): boolean;
  /** Whether a retained topic the scan saw is to be cleared. */
  isStale(topic: string): boolean;
}

/** A topic only one scan uses (`kind` names what it scans), under the device's `ctl-mqtt/` tree. */
export function scanMarkerTopic(topics: DeviceTopics, kind: string): string {
  return `${topics.prefix}/ctl-mqtt/${topics.deviceId}/${kind}-${randomBytes(6).toString('hex')}`;
}

/** The connection calls a scan needs. */
export interface ScanConnection {
  subscribe(filters: ISubscriptionMap): Promise<boolean>;
  publish(topic: string, payload: string, retain?: boolean): Promise<boolean>;
}

/**
 * Subscribes the scan's filters, sends its marker and resolves with the stale topics once the
 * replay is over (undefined when the scan was aborted). The caller routes incoming messages to
 * `scan.offer`, clears what it got and unsubscribes `scan.filters()`.
 */
export async function runStaleScan(connection: ScanConnection, scan: StaleTopicScan): Promise<string[] | undefined> {
  // A refused filter (an ACL) is no reason to keep the others: go on, unsubscribe at the end.
  if (await connection.subscribe(scan.subscriptions())) void connection.publish(scan.markerTopic, 'sync', false);
  scan.start();
  return scan.result;
}

export class StaleTopicScan {
  private readonly retained: string[] = [];
  private settle: ((stale: string[] | undefined) => void) | undefined;
  /** The marker came back, or its wait is over: the quiet period decides the end. */
  private waitingForQuiet = false;
  private markerTimer: Timer | undefined;
  private quietTimer: Timer | undefined;
  /** True when the scan ended without its marker (logged by the caller). */
  markerMissing = false;
  /** The stale topics once the replay is over; undefined if the scan was aborted. */
  readonly result: Promise<string[] | undefined>;

  constructor(
    private readonly selection: ScanSelection,
    /** A topic only this scan uses. */
    readonly markerTopic: string,
    private readonly timing: ScanTiming = DEFAULT_SCAN_TIMING,
    private readonly time: Time,
  ) {
    this.result = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  /** Starts waiting for the marker (call once the subscriptions are made and the marker sent). */
  start(): void {
    if (this.settle === undefined || this.markerTimer !== undefined) return;
    this.markerTimer = after(this.time, this.timing.markerWaitMs, () => {
      this.markerMissing = true;
      this.awaitQuiet();
    }).unref();
  }

  /** What to subscribe: the selection's filters and the marker. */
  subscriptions(): ISubscriptionMap {
    // QoS 0: the replay is read once and a lost connection aborts the scan anyway, so
    // acknowledgements buy nothing; and a broker may drop a persistent session that unsubscribes
    // while QoS 1 deliveries are in flight (aedes 1.2 does). The marker shares the QoS so the
    // replay and the marker travel in one ordered stream.
    // nl (MQTT 5 "no local"): our own publishes need not come back; the marker must.
    const map: ISubscriptionMap = {};
    for (const filter of this.selection.filters) map[filter] = { qos: 0, nl: true };
    map[this.markerTopic] = { qos: 0 };
    return map;
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
    if (retained && this.selection.covers(topic)) {
      this.retained.push(topic);
      if (this.waitingForQuiet) this.armQuiet();
      return true;
    }
    return false;
  }

  private awaitQuiet(): void {
    this.markerTimer?.cancel();
    this.waitingForQuiet = true;
    this.armQuiet();
  }

  private armQuiet(): void {
    this.quietTimer?.cancel();
    this.quietTimer = after(this.time, this.timing.settleMs, () =>
      this.finish(this.retained.filter((t) => this.selection.isStale(t))),
    ).unref();
  }

  /** Gives up (the connection dropped); `result` resolves undefined. */
  abort(): void {
    this.finish(undefined);
  }

  private finish(stale: string[] | undefined): void {
    this.markerTimer?.cancel();
    this.quietTimer?.cancel();
    const settle = this.settle;
    this.settle = undefined;
    settle?.(stale);
  }
}

/**
 * The device's control topics: values, JSON metas and legacy metas of all controls (not `/on`,
 * whose live commands must not arrive twice through overlapping filters). Stale: any topic of a
 * control the device does not have; for a control it has, a legacy meta subtopic this layer does
 * not publish (e.g. `meta/units` of an older driver). Values and `/on` of current controls are
 * never touched.
 */
export function staleControlSelection(topics: DeviceTopics, hasControl: (controlId: string) => boolean): ScanSelection {
  const controls = topics.control('+');
  return {
    filters: [controls, `${controls}/meta`, `${controls}/meta/+`],
    // Only what the filters cover (value, meta, meta/<key>): a retained /on replayed by the
    // device's own /on subscription is not the scan's.
    covers: (topic) => {
      const rest = topics.parseControlTopic(topic)?.rest;
      return rest !== undefined && /^(meta(\/[^/]+)?)?$/.test(rest);
    },
    isStale: (topic) => {
      const parsed = topics.parseControlTopic(topic);
      if (parsed === undefined) return false;
      if (!hasControl(parsed.controlId)) return true;
      if (!parsed.rest.startsWith('meta/')) return false;
      return !(CONTROL_LEGACY_METAS as readonly string[]).includes(parsed.rest.slice('meta/'.length));
    },
  };
}
