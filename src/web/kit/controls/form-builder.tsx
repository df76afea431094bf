import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover, Text, type Key } from 'react-aria-components';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { FieldShell } from '../../components/ui/field-shell';
import { ChevronDownIcon, ChevronRightIcon, PlusIcon } from '../../components/ui/icons';
import { Select } from '../../components/ui/select';
import { Tabs } from '../../components/ui/tabs';
import { TextField } from '../../components/ui/text-field';
import type { FieldControlProps } from '../field-control';
import {
  addField,
  FORM_FIELD_TYPE_INFO,
  FORM_FIELD_TYPES,
  formBuilderProblems,
  hasOptions,
  moveEntry,
  parseFormData,
  removeEntry,
  serialiseFormData,
  updateField,
  type EditableField,
  type FieldPatch,
  type FieldProblems,
  type FormEntry,
  type FormFieldType,
} from './form-builder-data';
import {
  afterPointerRelease,
  blurWithin,
  DragGrip,
  EmptyList,
  InlineTextInput,
  ItemActions,
  StoredValueProblem,
  useAnnouncer,
  useDragReorder,
  useFocusTargets,
} from './structured-parts';
import { moveItem, newId, type ListItem } from './structured-values';
import { useFocusHandle } from './use-focus-handle';
import { useStructuredValue } from './use-structured-value';
import './form-builder.css';

type Register = (key: string) => (el: HTMLElement | null) => void | (() => void);

const TYPE_OPTIONS = FORM_FIELD_TYPES.map((type) => ({ id: type, ...FORM_FIELD_TYPE_INFO[type] }));

/** How buttons and announcements name a field: its label, or its place when it has none yet. */
function entryName(entry: FormEntry, index: number): string {
  if (entry.kind === 'field' && entry.field.label.trim()) return `“${entry.field.label.trim()}”`;
  return `field ${index + 1}`;
}

/** What an entry of a type the builder cannot edit is called on its card. */
function otherTitle(source: unknown): { title: string; type: string } {
  const obj =
    typeof source === 'object' && source !== null && !Array.isArray(source) ? (source as Record<string, unknown>) : {};
  const title =
    typeof obj.label === 'string' && obj.label
      ? obj.label
      : typeof obj.name === 'string' && obj.name
        ? obj.name
        : 'Field';
  const type = typeof obj.type === 'string' ? `type “${obj.type}”` : 'unknown type';
  return { title, type };
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
    focusLater(`${entry.id}:${delta < 0 ? 'up' : 'down'}`, `${entry.id}:${delta < 0 ? 'down' : 'up'}`);
    announce(`${entryName(entry, index)} moved to position ${index + delta + 1} of ${entries.length}.`);
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
      <ol className="form-builder__list">
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
                isStored={entry.source !== null}
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

function FieldCard({
  id,
  field,
  isStored,
  nameFollowsLabel,
  index,
  count,
  itemName,
  problems,
  touched,
  onTouch,
  isExpanded,
  onToggle,
  onPatch,
  onMove,
  onRemove,
  register,
  toggleRef,
  grip,
  focusLater,
  announce,
  isReadOnly,
}: {
  id: string;
  field: EditableField;
  isStored: boolean;
  nameFollowsLabel: boolean;
  index: number;
  count: number;
  itemName: string;
  problems: FieldProblems | undefined;
  touched: ReadonlySet<string>;
  onTouch: (key: string) => void;
  isExpanded: boolean;
  onToggle: () => void;
  onPatch: (patch: FieldPatch) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
  register: Register;
  toggleRef: (el: HTMLElement | null) => void | (() => void);
  grip: ReactNode;
  focusLater: (...keys: string[]) => void;
  announce: (text: string) => void;
  isReadOnly?: boolean;
}) {
  const panelId = useId();
  const info = FORM_FIELD_TYPE_INFO[field.type];
  const shown = (key: string) => isStored || touched.has(key);
  const labelError = shown(`${id}:label`) ? problems?.label : undefined;
  return (
    <>
      <div className="builder-card__header">
        {grip}
        <AriaButton
          className="builder-card__toggle"
          aria-expanded={isExpanded}
          aria-controls={isExpanded ? panelId : undefined}
          onPress={onToggle}
          ref={toggleRef}
        >
          {isExpanded ? (
            <ChevronDownIcon className="builder-card__chevron" />
          ) : (
            <ChevronRightIcon className="builder-card__chevron" />
          )}
          <span
            className={field.label.trim() ? 'builder-card__title' : 'builder-card__title builder-card__title--empty'}
          >
            {field.label.trim() || 'Untitled field'}
          </span>
          <span className="badge">{info.label}</span>
          {field.required && <span className="badge">Required</span>}
          {problems && !isExpanded && <span className="badge builder-card__problem">Needs attention</span>}
        </AriaButton>
        {!isReadOnly && (
          <ItemActions
            id={id}
            itemName={itemName}
            index={index}
            count={count}
            onMove={onMove}
            onRemove={onRemove}
            register={register}
          />
        )}
      </div>
      {isExpanded && (
        <div id={panelId} className="builder-card__body">
          <div className="builder-card__row">
            <TextField
              label="Label"
              value={field.label}
              isRequired
              isReadOnly={isReadOnly}
              placeholder="What visitors read, e.g. Your e-mail"
              inputRef={register(`${id}:label`)}
              errorMessage={labelError}
              onChange={(label) => {
                onTouch(`${id}:label`);
                onPatch({ label });
              }}
              onBlur={() => afterPointerRelease(() => onTouch(`${id}:label`))}
            />
            <TextField
              label="Name"
              value={field.name}
              isRequired
              isReadOnly={isReadOnly}
              autoCapitalize="none"
              description={
                nameFollowsLabel
                  ? 'Made from the label until you change it. Answers are saved under it.'
                  : 'Answers are saved under it: letters, digits and _.'
              }
              errorMessage={problems?.name}
              onChange={(name) => onPatch({ name })}
            />
          </div>
          <div className="builder-card__row builder-card__row--settings">
            <Select
              label="Type"
              options={TYPE_OPTIONS}
              value={field.type}
              isDisabled={isReadOnly}
              onChange={(type) => onPatch({ type })}
            />
            <Checkbox
              isSelected={field.required}
              isReadOnly={isReadOnly}
              onChange={(required) => onPatch({ required })}
            >
              Visitors must answer
            </Checkbox>
          </div>
          {hasOptions(field.type) && (
            <OptionsEditor
              fieldId={id}
              options={field.options}
              problems={problems}
              isStored={isStored}
              touched={touched}
              onTouch={onTouch}
              onChange={(options) => onPatch({ options })}
              register={register}
              focusLater={focusLater}
              announce={announce}
              isReadOnly={isReadOnly}
            />
          )}
        </div>
      )}
    </>
  );
}

function OptionsEditor({
  fieldId,
  options,
  problems,
  isStored,
  touched,
  onTouch,
  onChange,
  register,
  focusLater,
  announce,
  isReadOnly,
}: {
  fieldId: string;
  options: ListItem[];
  problems: FieldProblems | undefined;
  isStored: boolean;
  touched: ReadonlySet<string>;
  onTouch: (key: string) => void;
  onChange: (options: ListItem[]) => void;
  register: Register;
  focusLater: (...keys: string[]) => void;
  announce: (text: string) => void;
  isReadOnly?: boolean;
}) {
  const labelId = useId();
  const errorId = useId();
  const optionName = (o: ListItem, i: number) => (o.text.trim() ? `option “${o.text.trim()}”` : `option ${i + 1}`);
  const add = (at: number) => {
    const id = newId();
    const next = [...options];
    next.splice(at, 0, { id, text: '' });
    onChange(next);
    focusLater(`${id}:input`);
  };
  const move = (i: number, delta: -1 | 1) => {
    const o = options[i]!;
    onChange(moveItem(options, i, i + delta));
    focusLater(`${o.id}:${delta < 0 ? 'up' : 'down'}`, `${o.id}:${delta < 0 ? 'down' : 'up'}`);
    announce(`${optionName(o, i)} moved to position ${i + delta + 1} of ${options.length}.`);
  };
  const remove = (i: number) => {
    const o = options[i]!;
    const rest = options.filter((x) => x.id !== o.id);
    onChange(rest);
    const next = rest[i] ?? rest[i - 1];
    focusLater(...(next ? [`${next.id}:input`] : []), `${fieldId}:add-option`);
    announce(`${optionName(o, i)} removed.`);
  };
  const handleKey = (i: number) => (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !isReadOnly) {
      event.preventDefault();
      add(i + 1);
    }
  };
  return (
    <div
      role="group"
      aria-labelledby={labelId}
      aria-describedby={problems?.options ? errorId : undefined}
      className="builder-options"
    >
      <span id={labelId} className="field__label">
        Options
      </span>
      <ol className="choice-list">
        {options.map((o, i) => (
          <li key={o.id} className="choice-list__item">
            <InlineTextInput
              label={`Option ${i + 1}`}
              placeholder={`Option ${i + 1}`}
              value={o.text}
              isReadOnly={isReadOnly}
              inputRef={register(`${o.id}:input`)}
              errorMessage={isStored || touched.has(o.id) ? problems?.option[o.id] : undefined}
              onChange={(text) => {
                onTouch(o.id);
                onChange(options.map((x) => (x.id === o.id ? { ...x, text } : x)));
              }}
              onBlur={() => afterPointerRelease(() => onTouch(o.id))}
              onKeyDown={handleKey(i)}
            />
            {!isReadOnly && (
              <ItemActions
                id={o.id}
                itemName={optionName(o, i)}
                index={i}
                count={options.length}
                onMove={(delta) => move(i, delta)}
                onRemove={() => remove(i)}
                register={register}
              />
            )}
          </li>
        ))}
      </ol>
      {problems?.options && (
        <span id={errorId} className="group-error">
          {problems.options}
        </span>
      )}
      {!isReadOnly && (
        <div>
          <Button variant="quiet" size="sm" onPress={() => add(options.length)} ref={register(`${fieldId}:add-option`)}>
            <PlusIcon /> Add option
          </Button>
        </div>
      )}
    </div>
  );
}

function OtherCard({
  id,
  source,
  index,
  count,
  itemName,
  onMove,
  onRemove,
  register,
  toggleRef,
  grip,
  isReadOnly,
}: {
  id: string;
  source: unknown;
  index: number;
  count: number;
  itemName: string;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
  register: Register;
  toggleRef: (el: HTMLElement | null) => void | (() => void);
  grip: ReactNode;
  isReadOnly?: boolean;
}) {
  const { title, type } = otherTitle(source);
  return (
    <>
      <div className="builder-card__header">
        {grip}
        <details className="builder-card__other">
          <summary ref={toggleRef} className="builder-card__toggle">
            <ChevronRightIcon className="builder-card__chevron builder-card__chevron--details" />
            <span className="builder-card__title">{title}</span>
            <span className="badge">{type}</span>
            <span className="builder-card__note">Not editable here; kept as it is</span>
          </summary>
          <pre className="stored-problem__value">{JSON.stringify(source, null, 2)}</pre>
        </details>
        {!isReadOnly && (
          <ItemActions
            id={id}
            itemName={itemName}
            index={index}
            count={count}
            onMove={onMove}
            onRemove={onRemove}
            register={register}
          />
        )}
      </div>
    </>
  );
}

function AddFieldMenu({
  onAdd,
  triggerRef,
}: {
  onAdd: (type: FormFieldType) => void;
  triggerRef: (el: HTMLElement | null) => void | (() => void);
}) {
  return (
    <MenuTrigger>
      <Button variant="secondary" ref={triggerRef}>
        <PlusIcon /> Add field
        <ChevronDownIcon />
      </Button>
      <Popover className="popover" placement="bottom start" offset={4}>
        <Menu className="menu" onAction={(key: Key) => onAdd(String(key) as FormFieldType)}>
          {TYPE_OPTIONS.map((t) => (
            <MenuItem key={t.id} id={t.id} textValue={t.label} className="menu__item">
              <span className="listbox__text">
                <Text slot="label">{t.label}</Text>
                <Text slot="description" className="listbox__description">
                  {t.description}
                </Text>
              </span>
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

/** The form as visitors will see it, to try out (nothing is sent). */
export function FormPreview({ entries }: { entries: readonly FormEntry[] }) {
  const uid = useId();
  if (entries.length === 0) return <EmptyList>The form has no fields yet.</EmptyList>;
  return (
    <div className="form-preview">
      <p className="form-preview__note">How visitors will see the form. Try it: nothing is sent.</p>
      {entries.map((entry) => {
        const key = `${uid}-${entry.id}`;
        if (entry.kind === 'other')
          return (
            <p key={entry.id} className="form-preview__other">
              {otherTitle(entry.source).title}: a field of {otherTitle(entry.source).type}, shown on the site only.
            </p>
          );
        const f = entry.field;
        const label = (
          <>
            {f.label.trim() || 'Untitled field'}
            {f.required && (
              <span className="field__required" aria-hidden="true">
                {' '}
                *
              </span>
            )}
          </>
        );
        switch (f.type) {
          case 'checkbox':
            return (
              <label key={entry.id} className="form-preview__check">
                <input type="checkbox" required={f.required} /> {label}
              </label>
            );
          case 'radio':
            return (
              <fieldset key={entry.id} className="form-preview__group">
                <legend className="field__label">{label}</legend>
                {f.options.map((o) => (
                  <label key={o.id} className="form-preview__check">
                    <input type="radio" name={key} required={f.required} /> {o.text || '(empty option)'}
                  </label>
                ))}
              </fieldset>
            );
          case 'select':
            return (
              <div key={entry.id} className="field">
                <label htmlFor={key} className="field__label">
                  {label}
                </label>
                <select id={key} className="field__input" required={f.required} defaultValue="">
                  <option value="" disabled>
                    Choose…
                  </option>
                  {f.options.map((o) => (
                    <option key={o.id}>{o.text || '(empty option)'}</option>
                  ))}
                </select>
              </div>
            );
          case 'textarea':
            return (
              <div key={entry.id} className="field">
                <label htmlFor={key} className="field__label">
                  {label}
                </label>
                <textarea id={key} className="field__input field__textarea" required={f.required} rows={3} />
              </div>
            );
          default:
            return (
              <div key={entry.id} className="field">
                <label htmlFor={key} className="field__label">
                  {label}
                </label>
                <input id={key} type={f.type} className="field__input" required={f.required} />
              </div>
            );
        }
      })}
    </div>
  );
}
