/**
 * The lifecycle's options that depend on where a service runs: alone, it listens to the process's
 * signals and tells systemd itself (NOTIFY_SOCKET of its environment); inside the controller's
 * host process, the host does both for every service it runs (hosted-process.ts).
 */
import type { Logger } from '../core/log.js';
import type { Time } from '../core/time.js';
import type { RunContext } from './hosted-process.js';
import type { LifecycleOptions } from './lifecycle.js';
import { serviceManagerOf, type NotificationSender } from './service-manager.js';

export function serviceProcessOf(
  context: RunContext,
  log: Logger,
  openNotifySocket: (socket: string) => NotificationSender,
  time: Time,
): Pick<LifecycleOptions, 'serviceManager' | 'hosted' | 'env'> {
  const { env, hosted } = context;
  if (hosted !== undefined) return { serviceManager: hosted.serviceManager, hosted, env };
  return { serviceManager: serviceManagerOf(env, openNotifySocket, log, time), env };
}
