/**
 * The services whose configurations the console edits, fixed when it starts: the menu lists them,
 * and a request names one of them, never a path.
 */
import { HttpError } from '../http/http-io.js';
import { answer } from '../http/answers.js';

/** Makes a saved config take effect: a command (no shell) or, in the demo, a function. */
export type ApplyAction = readonly string[] | (() => Promise<void>);

export interface ConfigService {
  /** The service name, from `configFile.service` (`ctl-mqtt-gpio`). */
  readonly id: string;
  /** The schema's title. */
  readonly title: string;
  /** The schema as read (with `configFile`). */
  readonly schema: Record<string, unknown>;
  readonly configFile: string;
  /** argv of `-j` and `-J`. */
  readonly toJSON: readonly string[];
  readonly fromJSON: readonly string[];
  /** argv of the hardware listing (`--list-lines`, `--list-channels`) with the service's backend options. */
  readonly listHardware?: readonly string[];
  /** The file whose CTL_MQTT_OPTS the listing also gets (the packaged unit's EnvironmentFile). */
  readonly listingOptionsFile?: string;
  readonly apply: ApplyAction;
}

export class ConfigServices {
  private readonly byId = new Map<string, ConfigService>();

  constructor(services: readonly ConfigService[]) {
    for (const service of services) this.byId.set(service.id, service);
  }

  list(): Array<{ id: string; title: string; configFile: string }> {
    return [...this.byId.values()].map((s) => ({ id: s.id, title: s.title, configFile: s.configFile }));
  }

  /** @throws HttpError 404 for a service the console does not manage. */
  service(id: string): ConfigService {
    const service = this.byId.get(id);
    if (service === undefined) throw new HttpError(404, answer('config.unknown', { id: JSON.stringify(id) }));
    return service;
  }
}
