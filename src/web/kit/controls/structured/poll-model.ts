import { parseObject, type Parsed } from './json-model';

/** The answer types the poll editor offers. */
export const ANSWER_TYPES = { single: 'One answer', multiple: 'Several answers' } as const;

/** The poll editor's model of `pollQuestion`; keys it does not know stay in `rest`. */
export interface PollModel {
  question: string;
  answerType: string;
  choices: { id: string; text: string }[];
  rest: Record<string, unknown>;
}

let nextId = 0;
export const newChoiceId = () => `c${++nextId}`;

/** Reads `pollQuestion` (`{question, answerType, answerChoices}`). */
export function parsePoll(json: string | null): Parsed<PollModel> {
  const obj = parseObject(json);
  if (!obj.ok) return obj;
  const { question, answerType, answerChoices, ...rest } = obj.model;
  if (answerChoices !== undefined && !Array.isArray(answerChoices)) {
    return { ok: false, message: '“answerChoices” is not a list.' };
  }
  return {
    ok: true,
    model: {
      question: typeof question === 'string' ? question : '',
      answerType: typeof answerType === 'string' && answerType ? answerType : 'single',
      choices: ((answerChoices as unknown[] | undefined) ?? []).map((c) => ({ id: newChoiceId(), text: String(c) })),
      rest,
    },
  };
}

/** The model back to `pollQuestion` JSON. */
export function serializePoll(model: PollModel): string {
  const { question: _q, answerType: _a, answerChoices: _c, ...rest } = model.rest;
  return JSON.stringify({
    question: model.question,
    answerType: model.answerType,
    answerChoices: model.choices.map((c) => c.text),
    ...rest,
  });
}

/** What is wrong with the poll, in words. */
export function pollProblems(model: PollModel): string[] {
  const out: string[] = [];
  if (model.question.trim() === '') out.push('Ask a question.');
  const texts = model.choices.map((c) => c.text.trim());
  if (texts.filter(Boolean).length < 2) out.push('Give at least two answers.');
  if (texts.some((t) => t === '')) out.push('Fill in or remove the empty answers.');
  if (new Set(texts.filter(Boolean)).size !== texts.filter(Boolean).length) out.push('Each answer appears once.');
  return out;
}
