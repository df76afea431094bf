import { describe, expect, it } from 'vitest';
import { assetTypeDef, checkFieldValue, type FieldDef } from '../../../shared/registry';
import {
  checkPollValue,
  parsePoll,
  pollProblems,
  PollQuestionData,
  serialisePoll,
  type PollModel,
} from './poll-editor-data';

const POLL_QUESTION: FieldDef = assetTypeDef('cmsPollAsset')!.fields.find((f) => f.key === 'pollQuestion')!;

function model(value: string | null): PollModel {
  const parsed = parsePoll(value);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.model;
}

describe('poll data', () => {
  it('writes back a stored value untouched as the identical string, unknown keys and answer types included', () => {
    for (const stored of [
      '{"question":"Tea or coffee?","answerType":"single","answerChoices":["Tea","Coffee"]}',
      '{"id":7,"question":"Rank them","answerType":"ranked","answerChoices":["A","B","C"],"closes":"2026-06-01"}',
    ]) {
      expect(serialisePoll(model(stored))).toBe(stored);
    }
  });

  it('keeps unknown keys in their places when edited', () => {
    const m = model('{"id":7,"question":"Q?","answerType":"ranked","answerChoices":["A","B"],"closes":"x"}');
    const out = serialisePoll({ ...m, question: 'New?', choices: [...m.choices, { id: 'n', text: 'C' }] });
    expect(out).toBe('{"id":7,"question":"New?","answerType":"ranked","answerChoices":["A","B","C"],"closes":"x"}');
  });

  it('writes, once filled in, values the registry and the documented shape accept', () => {
    const m = model(null);
    const out = serialisePoll({
      ...m,
      question: 'Which day?',
      answerType: 'multiple',
      choices: [
        { id: 'a', text: 'Monday' },
        { id: 'b', text: 'Friday' },
      ],
    });
    expect(out).toBe('{"question":"Which day?","answerType":"multiple","answerChoices":["Monday","Friday"]}');
    expect(checkFieldValue(POLL_QUESTION, out)).toBeNull();
    expect(checkPollValue(out)).toBeNull();
    expect(PollQuestionData.safeParse(JSON.parse(out)).success).toBe(true);
  });

  it('finds too few, empty and repeated choices, and an empty question', () => {
    const m = model('{"question":" ","answerType":"single","answerChoices":["Yes","","yes "]}');
    const p = pollProblems(m);
    expect(p.question).toBe('Write the question.');
    expect(p.choices).toBe('A poll needs at least two different choices.');
    expect(Object.values(p.choice)).toEqual(['Write the choice or remove it.', 'Same as choice 1.']);
    expect(p.isEmpty).toBe(false);
  });

  it('checks a value for the form in one sentence (what the registry lets through)', () => {
    const repeated = '{"question":"Q?","answerType":"single","answerChoices":["Yes","Yes"]}';
    expect(checkFieldValue(POLL_QUESTION, repeated)).toBeNull();
    expect(checkPollValue(repeated)).toBe('A poll needs at least two different choices.');
    const third = '{"question":"Q?","answerType":"single","answerChoices":["Yes","No","no"]}';
    expect(checkPollValue(third)).toBe('Choice 3: Same as choice 2.');
    expect(PollQuestionData.safeParse(JSON.parse(third)).success).toBe(false);
  });

  it('says why it cannot edit what is not a poll', () => {
    for (const value of ['{"question":', '"Q?"', '{"question":"Q","answerChoices":[1,2]}', '{"question":3}']) {
      expect(parsePoll(value).ok, value).toBe(false);
    }
  });
});
