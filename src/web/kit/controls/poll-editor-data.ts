import { z } from 'zod';
import {
  isPlainObject,
  listItemProblems,
  newId,
  parseJson,
  sameText,
  type ListItem,
  type Parsed,
} from './structured-values';

// The `pollQuestion` of a poll asset (`cmsPollAsset`): {"question": "…", "answerType": "single" | "multiple",
// "answerChoices": ["…", "…"]}. Other keys of the stored object, and an answer type other than the two the editor
// offers, are kept as they are.

/** The answer types the editor offers. */
export const POLL_ANSWER_TYPES = ['single', 'multiple'] as const;

/** A poll as the editor writes it once the editor's checks pass: a question and at least two different choices. */
export const PollQuestionData = z
  .looseObject({
    question: z.string().trim().min(1),
    answerType: z.string().min(1),
    answerChoices: z.array(z.string().trim().min(1)).min(2),
  })
  .refine((p) => p.answerChoices.every((c, i) => p.answerChoices.findIndex((o) => sameText(o, c)) === i), {
    message: 'choices must differ',
    path: ['answerChoices'],
  });

export interface PollModel {
  /** The stored object, written back around the edited keys (so unknown keys and their order stay). */
  root: Record<string, unknown>;
  question: string;
  answerType: string;
  choices: ListItem[];
}

/** A poll to start from: no question, one answer, two empty choices to fill in. */
export function emptyPoll(): PollModel {
  return {
    root: {},
    question: '',
    answerType: 'single',
    choices: [
      { id: newId(), text: '' },
      { id: newId(), text: '' },
    ],
  };
}

/** Reads a stored `pollQuestion` (null = unset: an empty poll). */
export function parsePoll(value: string | null): Parsed<PollModel> {
  if (value === null || value === '') return { ok: true, model: emptyPoll() };
  const parsed = parseJson(value);
  if (!parsed.ok) return parsed;
  const json = parsed.json;
  if (!isPlainObject(json)) return { ok: false, reason: 'It is not a JSON object.' };
  if (json.question !== undefined && typeof json.question !== 'string')
    return { ok: false, reason: 'Its question is not text.' };
  if (json.answerType !== undefined && typeof json.answerType !== 'string')
    return { ok: false, reason: 'Its answer type is not text.' };
  const choices = json.answerChoices;
  if (choices !== undefined && !(Array.isArray(choices) && choices.every((c) => typeof c === 'string')))
    return { ok: false, reason: 'Its choices ("answerChoices") are not a list of texts.' };
  return {
    ok: true,
    model: {
      root: json,
      question: json.question ?? '',
      // Missing only in data the server would not accept today; "single" is what a new poll gets.
      answerType: json.answerType ?? 'single',
      choices: (choices ?? []).map((text) => ({ id: newId(), text })),
    },
  };
}

/** Writes the model as `pollQuestion` JSON. */
export function serialisePoll(model: PollModel): string {
  return JSON.stringify({
    ...model.root,
    question: model.question,
    answerType: model.answerType,
    answerChoices: model.choices.map((c) => c.text),
  });
}

/** What is wrong with a poll, beside the inputs it concerns. */
export interface PollProblems {
  question?: string;
  answerType?: string;
  /** About the choices as a whole. */
  choices?: string;
  /** About single choices, by id. */
  choice: Record<string, string>;
}

/** The poll's problems; `isEmpty` tells whether there are none. */
export function pollProblems(model: PollModel): PollProblems & { isEmpty: boolean } {
  const p: PollProblems = { choice: listItemProblems(model.choices, 'choice') };
  if (model.question.trim() === '') p.question = 'Write the question.';
  if (model.answerType === '') p.answerType = 'Choose whether visitors give one answer or several.';
  const distinct = new Set(model.choices.map((c) => c.text.trim().toLocaleLowerCase()).filter(Boolean));
  if (distinct.size < 2) p.choices = 'A poll needs at least two different choices.';
  return { ...p, isEmpty: !p.question && !p.answerType && !p.choices && Object.keys(p.choice).length === 0 };
}

/**
 * The form's check of a `pollQuestion` value beyond the registry's (which lets one choice, or two equal ones,
 * through): null when fine, otherwise one sentence.
 */
export function checkPollValue(value: string | null): string | null {
  if (value === null || value === '') return null;
  const parsed = parsePoll(value);
  if (!parsed.ok) return parsed.reason;
  const p = pollProblems(parsed.model);
  if (p.isEmpty) return null;
  const first = p.question ?? p.answerType ?? p.choices;
  if (first) return first;
  const [id, message] = Object.entries(p.choice)[0]!;
  const index = parsed.model.choices.findIndex((c) => c.id === id);
  return `Choice ${index + 1}: ${message}`;
}
