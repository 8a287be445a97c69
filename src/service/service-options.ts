/**
 * The options every service takes from its command line, whichever driver it runs: how it reaches
 * the broker, how its device is named on MQTT, and what it reports. The command line (src/cli)
 * parses them; the services and the lifecycle read them.
 */

/** The broker as the command line gives it (the MQTT layer's own options are made from it by broker-options-from-cli.ts). */
export interface BrokerArguments {
  /** The URL to connect to: `--broker`, or `mqtt://HOST:PORT` from `-h`/`-p`. */
  readonly url: string;
  /** `-h` (default localhost); informative when `--broker` is given. */
  readonly host: string;
  /** `-p` (default 1883); informative when `--broker` is given. */
  readonly port: number;
  readonly username: string | null;
  readonly password: string | null;
  /** `--password-file`: read at start (`-P` and `--password-file`: the last one given is set). */
  readonly passwordFile: string | null;
  readonly tlsCa: string | null;
  readonly tlsCert: string | null;
  readonly tlsKey: string | null;
}

export interface ServiceOptions {
  /** `ctl-mqtt-gpio` or `ctl-mqtt-adc`. */
  readonly binary: string;
  /** `-c`: the main config file (`/etc/<binary>.conf`). */
  readonly configFile: string;
  readonly broker: BrokerArguments;
  /** `-T`: prepended literally to every topic ('' = none). */
  readonly topicPrefix: string;
  /** `--device-id`: MQTT device id (`ctl-gpio` / `ctl-adc`; `wb-gpio` / `wb-adc` on a Wiren Board). */
  readonly deviceId: string;
  /** `--client-id`: MQTT client id; null = the MQTT layer's default (`[<prefix>-]<device-id>-<hostname>`). */
  readonly clientId: string | null;
  /** `--ha-discovery[=PREFIX]`: Home Assistant discovery prefix, or null when off. */
  readonly haDiscoveryPrefix: string | null;
  /** `--ha-status-topic`: where Home Assistant announces itself (`homeassistant/status`). */
  readonly haStatusTopic: string;
  /** `--health-interval`: seconds between health documents on MQTT; 0 = none. */
  readonly healthIntervalS: number;
  /** `--sysfs-root`: prefix of `/sys` (tests, containers); `/` on a controller. */
  readonly sysfsRoot: string;
}

export const DEFAULT_HOST = 'localhost';
export const DEFAULT_PORT = 1883;
export const DEFAULT_HEALTH_INTERVAL_S = 60;
