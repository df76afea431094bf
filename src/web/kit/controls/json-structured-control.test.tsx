import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ASSET_TYPES, type FieldDef } from '../../../shared/registry';
import { renderControl } from '../../test/render-control';
import { JsonStructuredControl } from './json-structured-control';
import { checkStructuredValue } from './structured-checks';

const structuredFields = ASSET_TYPES.flatMap((t) => t.fields as readonly FieldDef[]).filter(
  (f) => f.editor === 'json-structured',
);

describe('JsonStructuredControl', () => {
  it('has a builder for every json-structured field of the registry, and none is a raw JSON text area', () => {
    expect(structuredFields.map((f) => f.structure).sort()).toEqual(['form', 'poll', 'settings']);
    for (const def of structuredFields) {
      const { unmount, container } = renderControl(JsonStructuredControl, def, null);
      expect(screen.queryByText('No editor for this field')).toBeNull();
      expect(container.querySelector('textarea')).toBeNull();
      unmount();
    }
  });

  it('picks the builder by structure', () => {
    const poll = structuredFields.find((f) => f.structure === 'poll')!;
    renderControl(JsonStructuredControl, poll, '{"question":"Q?","answerType":"single","answerChoices":["A","B"]}');
    expect(screen.getByRole('textbox', { name: 'Question text' })).toBeTruthy();
  });

  it('checks values the way the builders do', () => {
    expect(checkStructuredValue('poll', '{"question":"Q?","answerType":"single","answerChoices":["A"]}')).toMatch(
      /at least two/,
    );
    expect(checkStructuredValue('settings', '{"a":1}')).toBeNull();
    expect(checkStructuredValue(undefined, 'anything')).toBeNull();
  });
});
