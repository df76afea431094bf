import { useRef, useState } from 'react';
import { FieldShell } from '../../components/ui/field-shell';
import { Tabs } from '../../components/ui/tabs';
import type { FieldControlProps } from '../field-control';
import { AddFieldMenu, FieldCard, OtherCard } from './form-builder-cards';
import {
  addField,
  formBuilderProblems,
  moveEntry,
  parseFormData,
  removeEntry,
  serialiseFormData,
  updateField,
  type FieldPatch,
  type FormEntry,
  type FormFieldType,
} from './form-builder-data';
import { FormPreview } from './form-preview';
import { DragGrip, movedFocusKeys, movedSentence, useDragReorder } from './reorder';
import { blurWithin, EmptyList, StoredValueProblem, useAnnouncer, useFocusTargets } from './structured-parts';
import { moveItem } from './structured-values';
import { useFocusHandle } from './use-focus-handle';
import { useStructuredValue } from './use-structured-value';
import './form-builder.css';

/** How buttons and announcements name a field: its label, or its place when it has none yet. */
function entryName(entry: FormEntry, index: number): string {
  if (entry.kind === 'field' && entry.field.label.trim()) return `“${entry.field.label.trim()}”`;
  return `field ${index + 1}`;
}

/**
 * The kit's control for `structure: 'form'` (a form's `formdata`): fields of seven types added from a menu,
 * edited on cards (label, name, type, required, options), reordered from the keyboard and removed, with a live
 * preview. Writes `{config, fields}` JSON; `config`, unknown keys and entries of other types are kept.
 */
export function FormBuilder({ def, value, onChange, onBlur, errorMessage, isReadOnly, focusRef }: FieldControlProps) {
  const { parsed, source, update, replace } = useStructuredValue({
    value,
    onChange,
    parse: parseFormData,
    serialise: serialiseFormData,
  });
  const { register, focusLater } = useFocusTargets();
  const { announce, region } = useAnnouncer();
  const startOverRef = useRef<HTMLButtonElement>(null);
  const firstTarget = useRef<HTMLElement | null>(null);
  // Cards open: new ones, and stored ones with problems (so the user sees what to fix).
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => {
    if (!parsed.ok) return new Set();
    const problems = formBuilderProblems(parsed.model);
    return new Set(parsed.model.entries.filter((e) => problems.has(e.id)).map((e) => e.id));
  });
  // Where the user has been: a new field's empty label is only an error once they have left it.
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const touch = (key: string) => setTouched((t) => (t.has(key) ? t : new Set(t).add(key)));
  const toggle = (id: string) =>
    setExpanded((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  // A failed save gives the field an error (naming the first problem): from then on every problem shows, on an
  // open card, the untouched ones of new fields included.
  const [revealed, setRevealed] = useState(false);
  const [previousError, setPreviousError] = useState(errorMessage);
  if (errorMessage !== previousError) {
    setPreviousError(errorMessage);
    if (errorMessage && parsed.ok) {
      const problems = formBuilderProblems(parsed.model);
      setRevealed(true);
      setExpanded((s) => new Set([...s, ...problems.keys()]));
    }
  }

  useFocusHandle(focusRef, () => (parsed.ok ? firstTarget.current : startOverRef.current)?.focus());
  const drag = useDragReorder((from, to) => update((m) => ({ ...m, entries: moveItem(m.entries, from, to) })));

  if (!parsed.ok)
    return (
      <FieldShell label={def.label} description={def.help} errorMessage={errorMessage} isRequired={def.required} group>
        {() => (
          <StoredValueProblem
            subject="This form"
            reason={parsed.reason}
            value={source ?? ''}
            isReadOnly={isReadOnly}
            startOverRef={startOverRef}
            startOverLabel="an empty form"
            onStartOver={() => {
              replace({ root: {}, entries: [] });
              focusLater('add');
            }}
          />
        )}
      </FieldShell>
    );

  const model = parsed.model;
  const problems = formBuilderProblems(model);
  const entries = model.entries;

  const handleAdd = (type: FormFieldType) => {
    let id = '';
    update((m) => {
      const added = addField(m, type);
      id = added.id;
      return added.model;
    });
    setExpanded((s) => new Set(s).add(id));
    focusLater(`${id}:label`);
  };
  const handlePatch = (id: string, patch: FieldPatch) => update((m) => updateField(m, id, patch));
  const handleMove = (index: number, delta: -1 | 1) => {
    const entry = entries[index]!;
    update((m) => moveEntry(m, entry.id, delta));
    focusLater(...movedFocusKeys(entry.id, delta));
    announce(movedSentence(entryName(entry, index), index + delta + 1, entries.length));
  };
  const handleRemove = (index: number) => {
    const entry = entries[index]!;
    update((m) => removeEntry(m, entry.id));
    const next = entries[index + 1] ?? entries[index - 1];
    focusLater(...(next ? [`${next.id}:toggle`] : []), 'add');
    announce(`${entryName(entry, index)} removed.`);
  };
  const registerFirst = (key: string, isFirst: boolean) => (el: HTMLElement | null) => {
    if (isFirst && el?.isConnected !== false) firstTarget.current = el;
    return register(key)(el);
  };

  const builder = (
    <div className="form-builder__fields">
      {entries.length === 0 && <EmptyList>No fields yet. Add the first question visitors will answer.</EmptyList>}
      <ol className="card-list">
        {entries.map((entry, index) => (
          <li
            key={entry.id}
            className={['builder-card', drag.itemClass(index)].filter(Boolean).join(' ')}
            {...(isReadOnly ? {} : drag.targetProps(index))}
          >
            {entry.kind === 'field' ? (
              <FieldCard
                id={entry.id}
                field={entry.field}
                showsAllProblems={entry.source !== null || revealed}
                nameFollowsLabel={entry.nameFollowsLabel}
                index={index}
                count={entries.length}
                itemName={entryName(entry, index)}
                problems={problems.get(entry.id)}
                touched={touched}
                onTouch={touch}
                isExpanded={expanded.has(entry.id)}
                onToggle={() => toggle(entry.id)}
                onPatch={(patch) => handlePatch(entry.id, patch)}
                onMove={(delta) => handleMove(index, delta)}
                onRemove={() => handleRemove(index)}
                register={register}
                toggleRef={registerFirst(`${entry.id}:toggle`, index === 0)}
                grip={isReadOnly ? null : <DragGrip {...drag.gripProps(index)} />}
                focusLater={focusLater}
                announce={announce}
                isReadOnly={isReadOnly}
              />
            ) : (
              <OtherCard
                id={entry.id}
                source={entry.source}
                index={index}
                count={entries.length}
                itemName={entryName(entry, index)}
                onMove={(delta) => handleMove(index, delta)}
                onRemove={() => handleRemove(index)}
                register={register}
                toggleRef={registerFirst(`${entry.id}:toggle`, index === 0)}
                grip={isReadOnly ? null : <DragGrip {...drag.gripProps(index)} />}
                isReadOnly={isReadOnly}
              />
            )}
          </li>
        ))}
      </ol>
      {!isReadOnly && <AddFieldMenu onAdd={handleAdd} triggerRef={registerFirst('add', entries.length === 0)} />}
    </div>
  );

  return (
    <FieldShell
      label={def.label}
      description={def.help}
      errorMessage={errorMessage}
      isRequired={def.required}
      group
      className="form-builder"
    >
      {() => (
        <div onBlur={blurWithin(onBlur)}>
          <Tabs
            label={`${def.label}: view`}
            tabs={[
              { id: 'fields', label: `Fields (${entries.length})`, content: builder },
              { id: 'preview', label: 'Preview', content: <FormPreview entries={entries} /> },
            ]}
          />
          {region}
        </div>
      )}
    </FieldShell>
  );
}
