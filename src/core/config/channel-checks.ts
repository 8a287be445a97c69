/**
 * Semantic checks shared by both drivers, run on each schema-valid file:
 * a name or id must be one MQTT topic level whose topics fit MQTT's length limit, and no file may
 * name a channel twice (across files the same name means "merge", not "duplicate").
 */
import type { ConfigFamily } from './driver-config-spec.js';
import type { TopicLengthCheck } from './topic-length.js';
import type { ConfigSource } from './merge-channels.js';
import type { Problem } from './problems.js';
import { isJsonObject } from './schema-problems.js';
import { rule } from './config-rules.js';

/** Why a string cannot be one MQTT topic level, or null when it can. */
export function topicLevelFault(name: string): string | null {
  if (name === '') return rule('value.empty');
  if (name.includes('/')) return rule('name.slash');
  if (name.includes('+') || name.includes('#')) return rule('name.wildcard');
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return rule('name.control-character');
  return null;
}

/** `topicLength`: the check of a channel's longest topic the pipeline was handed (topic-length.ts). */
export function channelProblems(family: ConfigFamily, source: ConfigSource, topicLength: TopicLengthCheck): Problem[] {
  const problems: Problem[] = [];
  const list = source.value[family.channelsKey];
  if (!Array.isArray(list)) return problems;
  const firstIndex = new Map<string, number>();
  list.forEach((item, i) => {
    if (!isJsonObject(item)) return;
    const id = item[family.idKey];
    if (typeof id !== 'string') return;
    const path = [family.channelsKey, i, family.idKey];
    const fault = topicLevelFault(id) ?? topicLength(family.controlIds(id, item));
    if (fault) problems.push(source.doc.problem(path, fault, { value: id }));
    const first = firstIndex.get(id);
    if (first === undefined) {
      firstIndex.set(id, i);
    } else {
      problems.push(
        source.doc.problem(path, rule('name.duplicate', { key: family.idKey, list: family.channelsKey, index: first }), { value: id }),
      );
    }
  });
  return problems;
}
