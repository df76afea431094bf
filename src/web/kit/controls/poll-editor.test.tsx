import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { assetTypeDef, checkFieldValue, type FieldDef } from '../../../shared/registry';
import { renderControl } from '../../test/render-control';
import type { Focusable } from '../field-control';
import { checkPollValue } from './poll-editor-data';
import { PollEditor } from './poll-editor';

const POLL_QUESTION: FieldDef = assetTypeDef('cmsPollAsset')!.fields.find((f) => f.key === 'pollQuestion')!;
const STORED = '{"question":"Tea or coffee?","answerType":"single","answerChoices":["Tea","Coffee","Water"],"id":9}';

const choice = (n: number) => screen.getByRole('textbox', { name: `Choice ${n}` }) as HTMLInputElement;
const choiceTexts = () =>
  within(screen.getByRole('group', { name: 'Choices' }))
    .getAllByRole('textbox')
    .map((i) => (i as HTMLInputElement).value);
const written = (value: string | null | undefined) => JSON.parse(value ?? 'null');

describe('PollEditor', () => {
  it('shows the stored poll and writes nothing on load', () => {
    const { onChange } = renderControl(PollEditor, POLL_QUESTION, STORED);
    expect((screen.getByRole('textbox', { name: 'Question text' }) as HTMLInputElement).value).toBe('Tea or coffee?');
    expect(choiceTexts()).toEqual(['Tea', 'Coffee', 'Water']);
    expect(screen.getByRole('button', { name: /Visitors may give/ }).textContent).toContain('One answer');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('writes the edited poll, keeping keys it does not know', async () => {
    const { user, last } = renderControl(PollEditor, POLL_QUESTION, STORED);
    await user.clear(choice(3));
    await user.type(choice(3), 'Juice');
    expect(last()).toBe(
      '{"question":"Tea or coffee?","answerType":"single","answerChoices":["Tea","Coffee","Juice"],"id":9}',
    );
    expect(checkFieldValue(POLL_QUESTION, last())).toBeNull();
  });

  it('builds a new poll from nothing into a value the server and the editor accept', async () => {
    const { user, last, onChange } = renderControl(PollEditor, POLL_QUESTION, null);
    expect(onChange).not.toHaveBeenCalled();
    await user.type(screen.getByRole('textbox', { name: 'Question text' }), 'Which day suits you?');
    await user.type(choice(1), 'Monday');
    await user.type(choice(2), 'Friday');
    await user.click(screen.getByRole('button', { name: /Visitors may give/ }));
    await user.click(await screen.findByRole('option', { name: /Several answers/ }));
    expect(written(last())).toEqual({
      question: 'Which day suits you?',
      answerType: 'multiple',
      answerChoices: ['Monday', 'Friday'],
    });
    expect(checkFieldValue(POLL_QUESTION, last())).toBeNull();
    expect(checkPollValue(last()!)).toBeNull();
    expect(screen.queryByText(/Write the|Same as|at least two/)).toBeNull();
  });

  it('flags a repeated choice and too few choices as the user types', async () => {
    const { user } = renderControl(PollEditor, POLL_QUESTION, null);
    await user.type(choice(1), 'Yes');
    await user.type(choice(2), 'yes');
    expect(screen.getByText('Same as choice 1.')).toBeTruthy();
    expect(screen.getByText('A poll needs at least two different choices.')).toBeTruthy();
    expect(choice(2).getAttribute('aria-invalid')).toBe('true');
    await user.type(choice(2), '!');
    expect(screen.queryByText('Same as choice 1.')).toBeNull();
    expect(screen.queryByText(/at least two/)).toBeNull();
  });

  it('says when the question is emptied', async () => {
    const { user } = renderControl(PollEditor, POLL_QUESTION, STORED);
    await user.clear(screen.getByRole('textbox', { name: 'Question text' }));
    expect(screen.getByText('Write the question.')).toBeTruthy();
  });

  it('reorders choices from the keyboard, keeping the focus on the moved choice', async () => {
    const { user, last } = renderControl(PollEditor, POLL_QUESTION, STORED);
    screen.getByRole('button', { name: 'Move “Water” up' }).focus();
    await user.keyboard('{Enter}');
    expect(choiceTexts()).toEqual(['Tea', 'Water', 'Coffee']);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move “Water” up' }));
    await user.keyboard('{Enter}');
    expect(choiceTexts()).toEqual(['Water', 'Tea', 'Coffee']);
    // At the top "Move up" is disabled: the focus goes to "Move down" of the same choice.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move “Water” down' }));
    expect(written(last()).answerChoices).toEqual(['Water', 'Tea', 'Coffee']);
    expect(screen.getByText('“Water” moved to position 1 of 3.')).toBeTruthy();
  });

  it('removes a choice, moves the focus to the next one and says when too few are left', async () => {
    const { user, last } = renderControl(PollEditor, POLL_QUESTION, STORED);
    await user.click(screen.getByRole('button', { name: 'Remove “Tea”' }));
    expect(choiceTexts()).toEqual(['Coffee', 'Water']);
    expect(document.activeElement).toBe(choice(1));
    await user.click(screen.getByRole('button', { name: 'Remove “Water”' }));
    expect(document.activeElement).toBe(choice(1));
    expect(written(last()).answerChoices).toEqual(['Coffee']);
    expect(screen.getByText('A poll needs at least two different choices.')).toBeTruthy();
  });

  it('adds a choice after the current one with Enter and puts the cursor in it', async () => {
    const { user, last } = renderControl(PollEditor, POLL_QUESTION, STORED);
    await user.click(choice(1));
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(choice(2));
    await user.keyboard('Milk');
    expect(written(last()).answerChoices).toEqual(['Tea', 'Milk', 'Coffee', 'Water']);
    await user.click(screen.getByRole('button', { name: 'Add choice' }));
    expect(document.activeElement).toBe(choice(5));
  });

  it('shows and keeps an answer type it does not offer', async () => {
    const stored = '{"question":"Rank","answerType":"ranked","answerChoices":["A","B"]}';
    const { user, last } = renderControl(PollEditor, POLL_QUESTION, stored);
    expect(screen.getByRole('button', { name: /Visitors may give/ }).textContent).toContain('“ranked” (as saved)');
    await user.type(choice(2), '2');
    expect(written(last()).answerType).toBe('ranked');
  });

  it('keeps a stored value it cannot read and replaces it only on "Start over"', async () => {
    const broken = '{"question": "Tea?", "answerChoices": "Tea, Coffee"}';
    const { user, last, onChange } = renderControl(PollEditor, POLL_QUESTION, broken);
    expect(screen.getByRole('alert').textContent).toContain('This poll cannot be edited here');
    expect(screen.getByText(broken)).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Start over' }));
    expect(written(last())).toEqual({ question: '', answerType: 'single', answerChoices: ['', ''] });
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Question text' }));
  });

  it('is read only when asked', () => {
    renderControl(PollEditor, POLL_QUESTION, STORED, { isReadOnly: true });
    expect(screen.queryByRole('button', { name: /Move|Remove|Add choice/ })).toBeNull();
    expect(choice(1).readOnly).toBe(true);
    expect(screen.getByRole('textbox', { name: 'Question text' }).hasAttribute('readonly')).toBe(true);
  });

  it('reads the value again when the form replaces it (a reset), and hands out a focus handle', async () => {
    let handle: Focusable | null = null;
    const { user, setValue } = renderControl(PollEditor, POLL_QUESTION, STORED, { focusRef: (h) => (handle = h) });
    await user.type(choice(1), ' with milk');
    setValue(STORED);
    expect(choiceTexts()).toEqual(['Tea', 'Coffee', 'Water']);
    handle!.focus();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Question text' }));
  });

  it('gives back the stored string when an edit is undone', async () => {
    const spaced = '{ "question": "Q?", "answerType": "single", "answerChoices": ["A", "B"] }';
    const { user, last } = renderControl(PollEditor, POLL_QUESTION, spaced);
    await user.type(choice(2), 'x');
    expect(last()).toBe('{"question":"Q?","answerType":"single","answerChoices":["A","Bx"]}');
    await user.type(choice(2), '{Backspace}');
    expect(last()).toBe(spaced);
  });

  it('reports a blur when the focus leaves the editor, not while it moves inside', async () => {
    const onBlur = vi.fn();
    const { user } = renderControl(PollEditor, POLL_QUESTION, STORED, { onBlur });
    await user.click(screen.getByRole('textbox', { name: 'Question text' }));
    await user.click(choice(1));
    await user.click(choice(2));
    expect(onBlur).not.toHaveBeenCalled();
    await user.click(document.body);
    expect(onBlur).toHaveBeenCalledTimes(1);
  });
});
