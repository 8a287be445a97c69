/**
 * Which values a command to a control may carry, by the control's type in the conventions:
 * a switch takes `0` or `1`, a pushbutton `1`, a text control any one line, every other type is a
 * number (plain decimal notation; meter readings not below 0), by the rules of control-rules.ts,
 * which the page checks with too before it sends; this is the check that counts.
 */
import { controlKind, numberProblem } from '../common/control-rules.js';
import type { ControlView } from './device-view-model.js';

/** Longest payload the console publishes (a text control is one line, not a document). */
export const MAX_COMMAND_LENGTH = 256;

/** Why `value` cannot be sent to `control`, or undefined when it can. */
export function commandProblem(control: ControlView, value: string): string | undefined {
  if (control.readonly) return `${control.name} is read-only`;
  if (value.length > MAX_COMMAND_LENGTH) return `the value is longer than ${MAX_COMMAND_LENGTH} characters`;
  switch (controlKind(control.type)) {
    case 'switch':
      return value === '0' || value === '1' ? undefined : 'a switch takes 0 or 1';
    case 'pushbutton':
      return value === '1' ? undefined : 'a button takes 1';
    case 'text':
      return /[\u0000-\u001f\u007f]/.test(value) ? 'the text must be one line without control characters' : undefined;
    case 'number': {
      const problem = numberProblem(control.type, value);
      if (problem === 'number') return 'expected a number such as 1234.5';
      return problem === 'negative' ? 'a meter reading cannot be negative' : undefined;
    }
  }
}
