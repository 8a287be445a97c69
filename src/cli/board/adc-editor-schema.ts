/**
 * The edits of the ADC schema for Wiren Board's config editor (editor-edits.ts says why each is
 * needed).
 */
import {
  alwaysShown,
  descriptionsAsText,
  keepEmptyValues,
  savedAsTheEditorDoes,
  namesAreTopicLevels,
  noDefaultsFor,
  notOffered,
  systemChannelsWithoutHardware,
  titledProperties,
  type EditorEdit,
} from './editor-edits.js';
import { adcConfigSpec } from '../../adc/config/adc-config-spec.js';

export const ADC_EDITOR_EDITS: readonly EditorEdit[] = [
  namesAreTopicLevels(['definitions', 'custom_channel', 'properties', 'id']),
  systemChannelsWithoutHardware(['system_channel'], 'channel_number'),
  noDefaultsFor('system_channel', adcConfigSpec.boardValueKeys),
  keepEmptyValues('custom_channel'),
  // Deprecated and unused: kept when a file has it, never offered.
  notOffered('custom_channel', 'readings_number'),
  notOffered('system_channel', 'readings_number'),
  alwaysShown(['debug', 'max_unchanged_interval']),
  titledProperties,
  descriptionsAsText,
  savedAsTheEditorDoes,
];
