import { useId, type KeyboardEvent, type ReactNode } from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover, Text, type Key } from 'react-aria-components';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { ChevronDownIcon, ChevronRightIcon, PlusIcon } from '../../components/ui/icons';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import {
  FORM_FIELD_TYPE_INFO,
  FORM_FIELD_TYPES,
  hasOptions,
  type EditableField,
  type FieldPatch,
  type FieldProblems,
  type FormFieldType,
} from './form-builder-data';
import { otherTitle } from './form-preview';
import { ItemActions, movedFocusKeys, movedSentence } from './reorder';
import { afterPointerRelease, InlineTextInput } from './structured-parts';
import { moveItem, newId, type ListItem } from './structured-values';

// The cards of the form builder: a field's card (label, name, type, required, options), the card of an entry
// the builder cannot edit, and the "Add field" menu.

type Register = (key: string) => (el: HTMLElement | null) => void | (() => void);

const TYPE_OPTIONS = FORM_FIELD_TYPES.map((type) => ({ id: type, ...FORM_FIELD_TYPE_INFO[type] }));

/** A field's card: its header (title, badges, actions) and, when open, its settings. */
export function FieldCard({
  id,
  field,
  showsAllProblems,
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
  /** Stored fields, and all after a failed save, show every problem; new ones once the user has left a field. */
  showsAllProblems: boolean;
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
  const shown = (key: string) => showsAllProblems || touched.has(key);
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
              showsAllProblems={showsAllProblems}
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

/** The options of a drop-down or radio field: Enter adds the next, each can move or go. */
function OptionsEditor({
  fieldId,
  options,
  problems,
  showsAllProblems,
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
  showsAllProblems: boolean;
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
    focusLater(...movedFocusKeys(o.id, delta));
    announce(movedSentence(optionName(o, i), i + delta + 1, options.length));
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
              errorMessage={showsAllProblems || touched.has(o.id) ? problems?.option[o.id] : undefined}
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

/** The card of an entry of a type the builder cannot edit: shown as it is, movable and removable. */
export function OtherCard({
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

/** "Add field": a menu of the field types, each with what it is for. */
export function AddFieldMenu({
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
