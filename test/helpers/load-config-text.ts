/** Loads a config given as text, as the services load a file (`name` is used in problem lines). */
import type { DriverConfigSpec } from '../../src/core/config/driver-config-spec.js';
import { JsonDocument } from '../../src/core/config/json-document.js';
import { loadConfig, type Loaded } from '../../src/core/config/pipeline.js';
import type { TopicLengthCheck } from '../../src/core/config/topic-length.js';

export function loadConfigText<Model>(
  spec: DriverConfigSpec<Model>,
  name: string,
  text: string,
  boardDir: string | null,
  topicLength: TopicLengthCheck,
): Loaded<Model> {
  return loadConfig(spec, { main: JsonDocument.parse(name, text), boardDir, topicLength });
}
