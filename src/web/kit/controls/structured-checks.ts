import type { JsonStructure } from '../../../shared/registry';
import { checkFormBuilderValue } from './form-builder-data';
import { checkPollValue } from './poll-editor-data';
import { checkSettingsValue } from './settings-editor-data';

/**
 * Each builder's check of a value, beyond the registry's `checkFieldValue` (which accepts a poll with one choice
 * or a form with two fields of one name): null when fine, otherwise one sentence for the field's error.
 */
export const STRUCTURED_CHECKS: Record<JsonStructure, (value: string | null) => string | null> = {
  form: checkFormBuilderValue,
  poll: checkPollValue,
  settings: checkSettingsValue,
};

/** Checks a value of a `json-structured` field the way its builder does (null for other fields or when fine). */
export function checkStructuredValue(structure: JsonStructure | undefined, value: string | null): string | null {
  return structure ? STRUCTURED_CHECKS[structure](value) : null;
}
