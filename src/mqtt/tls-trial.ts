/**
 * New TLS material tried against the broker before the working connection is dropped for it (a
 * reload after a certificate rotation). A certificate from another CA, or a CA file that does not
 * hold the broker's CA, reads fine (tls-material.ts): only the broker can say it will not do, and
 * dropping the connection first would leave the service disconnected for good, after a normal
 * DISCONNECT that publishes no last will, so the device would look healthy.
 *
 * Usable means the broker answered an MQTT CONNECT over a TLS session made with the material: with
 * TLS 1.3 the broker checks the client's certificate after the client's side of the handshake is
 * done, so a finished handshake alone does not tell. A CONNACK that refuses the probe is about its
 * client id or credentials, the same with any material: the material is usable.
 */
import { messageOf } from '../core/errors.js';
import { probeBroker, type ProbeOptions } from './broker-probe.js';
import { tlsFailure } from './tls-failure.js';

/** The probe's options: `broker` has the new material (and the files it came from). */
export type TlsTrialOptions = ProbeOptions;

export type TlsTrial =
  | { readonly kind: 'usable' }
  /** The broker or the handshake refused the material: `problem` names the file and says why. */
  | { readonly kind: 'refused'; readonly problem: string }
  /** No verdict on the material (the broker unreachable, no answer in time): `problem` says why. */
  | { readonly kind: 'unknown'; readonly problem: string };

/** Connects once with the material; never rejects. */
export async function tryTlsMaterial(options: TlsTrialOptions): Promise<TlsTrial> {
  const answer = await probeBroker(options);
  if (answer.kind !== 'failed') return { kind: 'usable' };
  const refused = tlsFailure(answer.error, options.broker.tlsFiles);
  if (refused !== undefined) return { kind: 'refused', problem: refused };
  return {
    kind: 'unknown',
    problem: answer.error !== undefined ? messageOf(answer.error) : 'the broker closed the connection without an answer',
  };
}
