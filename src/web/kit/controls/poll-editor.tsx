import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '../../components/ui/button';
import { FieldShell } from '../../components/ui/field-shell';
import { PlusIcon } from '../../components/ui/icons';
import { Select, type SelectOption } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import type { FieldControlProps } from '../field-control';
import { emptyPoll, parsePoll, pollProblems, serialisePoll, type PollModel } from './poll-editor-data';
import {
  afterPointerRelease,
  blurWithin,
  EmptyList,
  InlineTextInput,
  StoredValueProblem,
  useAnnouncer,
  useFocusTargets,
} from './structured-parts';
import { DragGrip, ItemActions, movedFocusKeys, movedSentence, useDragReorder } from './reorder';
import { moveItem, newId } from './structured-values';
import { useFocusHandle } from './use-focus-handle';
import { useStructuredValue } from './use-structured-value';
import './poll-editor.css';

const ANSWER_TYPES: readonly SelectOption<string>[] = [
  { id: 'single', label: 'One answer', description: 'Radio buttons: visitors pick one choice' },
  { id: 'multiple', label: 'Several answers', description: 'Checkboxes: visitors pick any number' },
];

const choiceName = (text: string, index: number) => (text.trim() ? `“${text.trim()}”` : `choice ${index + 1}`);

/**
 * The kit's control for `structure: 'poll'` (a poll's `pollQuestion`): the question, one answer or several, and
 * the choices (added, edited, reordered from the keyboard, removed), checked as the user types. Writes
 * `{question, answerType, answerChoices}` JSON, keeping keys and answer types it does not know.
 */
export function PollEditor({ def, value, onChange, onBlur, errorMessage, isReadOnly, focusRef }: FieldControlProps) {
  const { parsed, source, update, replace } = useStructuredValue({
    value,
    onChange,
    parse: parsePoll,
    serialise: serialisePoll,
  });
  const { register, focusLater } = useFocusTargets();
  const { announce, region } = useAnnouncer();
  const questionRef = useRef<HTMLInputElement>(null);
  const startOverRef = useRef<HTMLButtonElement>(null);
  const choicesLabelId = useId();
  const choicesErrorId = useId();
  // A poll from the server shows its problems at once; a new one only where the user has been — until a save
  // finds the poll wanting (the form gives it an error): then every problem shows, where it is.
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const showAll = (source !== null && source !== '') || Boolean(errorMessage);
  const touch = (key: string) => setTouched((t) => (t.has(key) ? t : new Set(t).add(key)));
  const isShown = (key: string) => showAll || touched.has(key);

  useFocusHandle(focusRef, () => (parsed.ok ? questionRef.current : startOverRef.current)?.focus());
  const drag = useDragReorder((from, to) => update((m) => ({ ...m, choices: moveItem(m.choices, from, to) })));

  return (
    <FieldShell
      label={def.label}
      description={def.help}
      errorMessage={errorMessage}
      isRequired={def.required}
      group
      className="poll-editor"
    >
      {() => {
        if (!parsed.ok)
          return (
            <StoredValueProblem
              subject="This poll"
              reason={parsed.reason}
              value={source ?? ''}
              isReadOnly={isReadOnly}
              startOverRef={startOverRef}
              startOverLabel="an empty poll"
              onStartOver={() => {
                replace(emptyPoll());
                focusLater('question');
              }}
            />
          );
        const poll = parsed.model;
        const problems = pollProblems(poll);
        const edit = (fn: (m: PollModel) => PollModel) => update(fn);
        const setChoices = (choices: PollModel['choices']) => edit((m) => ({ ...m, choices }));

        const addChoice = (at: number) => {
          const id = newId();
          edit((m) => {
            const choices = [...m.choices];
            choices.splice(at, 0, { id, text: '' });
            return { ...m, choices };
          });
          focusLater(`${id}:input`);
        };
        const moveChoice = (index: number, delta: -1 | 1) => {
          const choice = poll.choices[index]!;
          setChoices(moveItem(poll.choices, index, index + delta));
          focusLater(...movedFocusKeys(choice.id, delta));
          announce(movedSentence(choiceName(choice.text, index), index + delta + 1, poll.choices.length));
        };
        const removeChoice = (index: number) => {
          const choice = poll.choices[index]!;
          const rest = poll.choices.filter((c) => c.id !== choice.id);
          setChoices(rest);
          touch('choices');
          const next = rest[index] ?? rest[index - 1];
          focusLater(...(next ? [`${next.id}:input`] : []), 'add');
          announce(`${choiceName(choice.text, index)} removed.`);
        };
        // Enter in a choice adds the next one, the way people type a list.
        const handleChoiceKey = (index: number) => (event: KeyboardEvent) => {
          if (event.key === 'Enter' && !isReadOnly) {
            event.preventDefault();
            addChoice(index + 1);
          }
        };

        const answerTypes = ANSWER_TYPES.some((t) => t.id === poll.answerType)
          ? ANSWER_TYPES
          : [
              ...ANSWER_TYPES,
              {
                id: poll.answerType,
                label: poll.answerType ? `“${poll.answerType}” (as saved)` : 'Not set',
                description: 'Kept as the server holds it',
              },
            ];
        const isMultiple = poll.answerType === 'multiple';
        const anyChoiceTouched = touched.has('choices') || poll.choices.some((c) => touched.has(c.id));
        const choicesError = (showAll || anyChoiceTouched) && problems.choices;

        return (
          <div className="poll-editor__body" onBlur={blurWithin(onBlur)}>
            <TextField
              label="Question text"
              value={poll.question}
              isRequired
              isReadOnly={isReadOnly}
              inputRef={(el) => {
                questionRef.current = el;
                return register('question')(el);
              }}
              placeholder="What would you like to ask?"
              errorMessage={isShown('question') ? problems.question : undefined}
              onChange={(question) => {
                touch('question');
                edit((m) => ({ ...m, question }));
              }}
              onBlur={() => afterPointerRelease(() => touch('question'))}
            />
            <div className="poll-editor__answer-type">
              <Select
                label="Visitors may give"
                options={answerTypes}
                value={poll.answerType}
                isDisabled={isReadOnly}
                errorMessage={problems.answerType}
                onChange={(answerType) => edit((m) => ({ ...m, answerType }))}
              />
            </div>
            <div
              role="group"
              aria-labelledby={choicesLabelId}
              aria-describedby={choicesError ? choicesErrorId : undefined}
              className="poll-editor__choices"
            >
              <span id={choicesLabelId} className="field__label">
                Choices
              </span>
              {poll.choices.length === 0 && <EmptyList>No choices yet.</EmptyList>}
              <ol className="choice-list">
                {poll.choices.map((choice, index) => (
                  <li
                    key={choice.id}
                    className={['choice-list__item', drag.itemClass(index)].filter(Boolean).join(' ')}
                    {...(isReadOnly ? {} : drag.targetProps(index))}
                  >
                    {!isReadOnly && <DragGrip {...drag.gripProps(index)} />}
                    <span
                      className={isMultiple ? 'choice-list__marker choice-list__marker--box' : 'choice-list__marker'}
                      aria-hidden="true"
                    />
                    <InlineTextInput
                      label={`Choice ${index + 1}`}
                      value={choice.text}
                      placeholder={`Choice ${index + 1}`}
                      isReadOnly={isReadOnly}
                      inputRef={register(`${choice.id}:input`)}
                      errorMessage={isShown(choice.id) ? problems.choice[choice.id] : undefined}
                      onChange={(text) => {
                        touch(choice.id);
                        setChoices(poll.choices.map((c) => (c.id === choice.id ? { ...c, text } : c)));
                      }}
                      onBlur={() => afterPointerRelease(() => touch(choice.id))}
                      onKeyDown={handleChoiceKey(index)}
                    />
                    {!isReadOnly && (
                      <ItemActions
                        id={choice.id}
                        itemName={choiceName(choice.text, index)}
                        index={index}
                        count={poll.choices.length}
                        onMove={(delta) => moveChoice(index, delta)}
                        onRemove={() => removeChoice(index)}
                        register={register}
                      />
                    )}
                  </li>
                ))}
              </ol>
              {choicesError && (
                <span id={choicesErrorId} className="group-error">
                  {choicesError}
                </span>
              )}
              {!isReadOnly && (
                <div>
                  <Button
                    variant="secondary"
                    size="sm"
                    onPress={() => addChoice(poll.choices.length)}
                    ref={register('add')}
                  >
                    <PlusIcon /> Add choice
                  </Button>
                </div>
              )}
            </div>
            {region}
          </div>
        );
      }}
    </FieldShell>
  );
}
