/** A logger that keeps its lines in memory, for a test to read what a part logged. */
import { createLogger, type Logger } from '../../src/core/log.js';

export function createMemoryLogger(namespace = 'test', debug = true): Logger & { lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({ namespace, debug, write: (line) => lines.push(line) });
  return Object.assign(logger, { lines });
}
