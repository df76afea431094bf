import { describe, expect, it } from 'vitest';
import { labelInSentence } from './names';

describe('labelInSentence', () => {
  it('writes a type’s label as it reads in a sentence, keeping abbreviations in capitals', () => {
    expect(labelInSentence('RSS feed')).toBe('RSS feed');
    expect(labelInSentence('HTML')).toBe('HTML');
    expect(labelInSentence('Page auto list')).toBe('page auto list');
    expect(labelInSentence('Rich text')).toBe('rich text');
    expect(labelInSentence('E-mail form')).toBe('e-mail form');
  });
});
