import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import { readModeOf } from '../../../src/adc/run.js';

test('CTL_ADC_READS forces a read path; unset or adaptive lets each channel choose; junk is ignored with a warning', () => {
  const log = createMemoryLogger('ctl:adc');
  assert.equal(readModeOf({}, log), undefined);
  assert.equal(readModeOf({ CTL_ADC_READS: 'adaptive' }, log), undefined);
  assert.equal(readModeOf({ CTL_ADC_READS: 'async' }, log), 'async');
  assert.equal(readModeOf({ CTL_ADC_READS: 'sync' }, log), 'sync');
  assert.equal(readModeOf({ CTL_ADC_READS: 'fast' }, log), undefined);
  assert.deepEqual(log.lines, [
    'INFO: [ctl:adc] CTL_ADC_READS=async: every channel reads on the thread pool',
    'INFO: [ctl:adc] CTL_ADC_READS=sync: every channel reads synchronously',
    'WARNING: [ctl:adc] CTL_ADC_READS="fast" ignored (adaptive, async or sync)',
  ]);
});
