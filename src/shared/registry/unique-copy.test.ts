import { describe, expect, it } from 'vitest';
import { assetTypeDef } from './asset-types';
import { fieldsForCopy, nextUniqueValue } from './unique-copy';

describe('unique names of copies', () => {
  it('numbers a copy as a person would, taking the first free number', () => {
    expect(nextUniqueValue('contact-form', new Set(['contact-form']))).toBe('contact-form-2');
    expect(nextUniqueValue('contact-form-2', new Set(['contact-form', 'contact-form-2']))).toBe('contact-form-3');
    expect(nextUniqueValue('contact-form', new Set(['contact-form', 'contact-form-2', 'contact-form-3']))).toBe(
      'contact-form-4',
    );
  });

  it('gives the form, poll and calendar copies a unique name and copies every other field as it is', () => {
    const form = assetTypeDef('cmsFormAsset')!.fields;
    const fields = { formuniquenamevalidator: 'signup', formtitle: 'Sign up', description: null };
    expect(fieldsForCopy(form, fields, [fields])).toEqual({ ...fields, formuniquenamevalidator: 'signup-2' });
    const poll = assetTypeDef('cmsPollAsset')!.fields;
    expect(fieldsForCopy(poll, { pollUniqueName: 'vote' }, [{ pollUniqueName: 'vote' }]).pollUniqueName).toBe('vote-2');
    const calendar = assetTypeDef('cmsCalendarAsset')!.fields;
    expect(fieldsForCopy(calendar, { calendar_unique_name: 'events' }, []).calendar_unique_name).toBe('events-2');
    // An unset name stays unset.
    expect(fieldsForCopy(form, { formuniquenamevalidator: null }, [])).toEqual({ formuniquenamevalidator: null });
  });
});
