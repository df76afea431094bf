import { useEffect, useRef } from 'react';
import { Radio, RadioGroup, Label } from 'react-aria-components';
import { FieldShell } from '../../../components/ui/field-shell';
import { TextField } from '../../../components/ui/text-field';
import type { FieldControlProps } from '../../field-control';
import { useJsonModel } from './json-model';
import { StringListEditor, UnreadableJson } from './list-parts';
import { ANSWER_TYPES, newChoiceId, parsePoll, pollProblems, serializePoll } from './poll-model';
import './structured.css';

/**
 * `json-structured` / poll: the question, one or several answers allowed, and the answers — added, edited,
 * reordered and removed. An answer type the server holds that is not one of the two is shown and kept.
 */
export function PollEditorControl(props: FieldControlProps) {
  const { def, value, onChange, errorMessage, isReadOnly, focusRef } = props;
  const { parsed, update } = useJsonModel(value, parsePoll, serializePoll, onChange);
  const question = useRef<HTMLInputElement | null>(null);
  useEffect(() => {
    focusRef?.({ focus: () => question.current?.focus() });
    return () => focusRef?.(null);
  }, [focusRef]);

  return (
    <FieldShell label={def.label} description={def.help} errorMessage={errorMessage} isRequired={def.required} group>
      {() => {
        if (!parsed.ok) {
          return (
            <UnreadableJson
              message={parsed.message}
              json={value}
              what="poll"
              isReadOnly={isReadOnly}
              onStartOver={() => update({ question: '', answerType: 'single', choices: [], rest: {} })}
            />
          );
        }
        const model = parsed.model;
        const problems = value === null ? [] : pollProblems(model);
        const types = Object.entries(ANSWER_TYPES) as [string, string][];
        if (!(model.answerType in ANSWER_TYPES))
          types.push([model.answerType, `“${model.answerType}” (kept as stored)`]);
        return (
          <div className="struct">
            <TextField
              label="Question"
              value={model.question}
              isReadOnly={isReadOnly}
              isRequired
              inputRef={(el) => {
                question.current = el;
              }}
              onChange={(q) => update({ ...model, question: q })}
            />
            <RadioGroup
              className="struct__radios"
              value={model.answerType}
              isReadOnly={isReadOnly}
              onChange={(answerType) => update({ ...model, answerType })}
              orientation="horizontal"
            >
              <Label className="field__label">Visitors choose</Label>
              <div className="struct__radio-row">
                {types.map(([id, label]) => (
                  <Radio key={id} value={id} className="struct__radio">
                    <span className="struct__radio-dot" aria-hidden="true" />
                    {label}
                  </Radio>
                ))}
              </div>
            </RadioGroup>
            <StringListEditor
              label="Answers"
              itemLabel="Answer"
              addLabel="Add an answer"
              isReadOnly={isReadOnly}
              newId={newChoiceId}
              items={model.choices}
              onChange={(choices) => update({ ...model, choices })}
            />
            {problems.length > 0 && (
              <ul className="struct__problems" role="alert">
                {problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
          </div>
        );
      }}
    </FieldShell>
  );
}
