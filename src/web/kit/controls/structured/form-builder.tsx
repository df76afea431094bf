import { useEffect, useRef, useState } from 'react';
import { Disclosure, DisclosurePanel, Heading, Button as AriaButton } from 'react-aria-components';
import { Button } from '../../../components/ui/button';
import { FieldShell } from '../../../components/ui/field-shell';
import { ChevronRightIcon, PlusIcon } from '../../../components/ui/icons';
import { Select } from '../../../components/ui/select';
import { Switch } from '../../../components/ui/switch';
import { TextField } from '../../../components/ui/text-field';
import type { FieldControlProps } from '../../field-control';
import {
  FORM_FIELD_TYPE_LABEL,
  FORM_FIELD_TYPES,
  fieldProblems,
  nameFromLabel,
  newId,
  parseFormData,
  serializeFormData,
  TYPES_WITH_OPTIONS,
  type FieldEntry,
  type FormField,
  type FormFieldType,
  type FormModel,
} from './form-model';
import { moveItem, useJsonModel } from './json-model';
import { ItemActions, StringListEditor, UnreadableJson, useMoveFocus } from './list-parts';
import './structured.css';

/**
 * `json-structured` / form: the fields of a form visitors fill in — added, edited, reordered and removed; each
 * with its label, name (from the label until edited), type, required, and options for radio groups and
 * drop-downs. What the builder does not know in the stored JSON is kept as it was.
 */
export function FormBuilderControl(props: FieldControlProps) {
  const { def, value, onChange, errorMessage, isReadOnly, focusRef } = props;
  const { parsed, update } = useJsonModel(value, parseFormData, serializeFormData, onChange);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const focus = useMoveFocus();
  const labelInputs = useRef(new Map<string, HTMLInputElement>());
  const [focusLabelOf, setFocusLabelOf] = useState<string | null>(null);
  /** Fields whose name the user typed (no longer follows the label). */
  const [namedByHand] = useState(() => new Set<string>());
  const addButton = useRef<HTMLButtonElement>(null);
  /** Stable ids of each field's options (for keys and for focus after a move), never stored. */
  const optionIds = useRef(new Map<string, string[]>());
  const optionItems = (entryId: string, options: readonly string[]) => {
    let ids = optionIds.current.get(entryId);
    if (!ids || ids.length !== options.length) {
      ids = options.map(() => newId());
      optionIds.current.set(entryId, ids);
    }
    return options.map((text, k) => ({ id: ids[k]!, text }));
  };

  useEffect(() => {
    focusRef?.({ focus: () => addButton.current?.focus() });
    return () => focusRef?.(null);
  }, [focusRef]);
  useEffect(() => {
    if (!focusLabelOf) return;
    labelInputs.current.get(focusLabelOf)?.focus();
    setFocusLabelOf(null);
  }, [focusLabelOf]);

  return (
    <FieldShell label={def.label} description={def.help} errorMessage={errorMessage} isRequired={def.required} group>
      {() => {
        if (!parsed.ok) {
          return (
            <UnreadableJson
              message={parsed.message}
              json={value}
              what="form"
              isReadOnly={isReadOnly}
              onStartOver={() => update({ rest: { config: {} }, fields: [] })}
            />
          );
        }
        const model = parsed.model;
        const setFields = (fields: FieldEntry[]) => update({ ...model, fields });
        const setField = (id: string, patch: Partial<FormField>) =>
          setFields(model.fields.map((e) => (e.id === id && e.known ? { ...e, field: { ...e.field, ...patch } } : e)));
        const add = (type: FormFieldType) => {
          const n = model.fields.length + 1;
          const label = `Field ${n}`;
          const id = newId();
          const field: FormField = {
            type,
            name: uniqueName(nameFromLabel(label), model),
            label,
            required: false,
            ...(TYPES_WITH_OPTIONS.includes(type) ? { options: ['Option 1', 'Option 2'] } : {}),
          };
          setFields([...model.fields, { id, known: true, field }]);
          setOpen((o) => new Set([...o, id]));
          setFocusLabelOf(id);
        };
        return (
          <div className="struct">
            {model.fields.length === 0 ? (
              <p className="struct__empty">No fields yet. Add the first one below.</p>
            ) : (
              <ol className="struct__items">
                {model.fields.map((entry, i) => {
                  const title = entry.known
                    ? entry.field.label || entry.field.name || `Field ${i + 1}`
                    : `Field ${i + 1}`;
                  const name = `the field “${title}”`;
                  const actions = (
                    <ItemActions
                      name={name}
                      index={i}
                      count={model.fields.length}
                      isReadOnly={isReadOnly}
                      registerButton={focus.register(entry.id)}
                      onMove={(from, to, which) => {
                        focus.focusAfterRender(entry.id, which);
                        setFields(moveItem(model.fields, from, to));
                      }}
                      onRemove={() => {
                        setFields(model.fields.filter((e) => e.id !== entry.id));
                        addButton.current?.focus();
                      }}
                    />
                  );
                  if (!entry.known) {
                    return (
                      <li key={entry.id} className="struct__item struct__item--kept">
                        <div className="struct__item-head">
                          <span className="struct__item-title">
                            {i + 1}. A field this editor does not know — kept as it is
                          </span>
                          {actions}
                        </div>
                        <pre className="struct__json">{JSON.stringify(entry.raw)}</pre>
                      </li>
                    );
                  }
                  const f = entry.field;
                  const problems = fieldProblems(f, model.fields, entry.id);
                  return (
                    <li key={entry.id} className="struct__item" data-invalid={problems.length ? true : undefined}>
                      <Disclosure
                        isExpanded={open.has(entry.id)}
                        onExpandedChange={(x) =>
                          setOpen((o) => {
                            const next = new Set(o);
                            if (x) next.add(entry.id);
                            else next.delete(entry.id);
                            return next;
                          })
                        }
                      >
                        <div className="struct__item-head">
                          <Heading level={4} className="struct__item-heading">
                            <AriaButton slot="trigger" className="struct__toggle">
                              <ChevronRightIcon className="struct__chevron" />
                              <span className="struct__item-title">
                                {i + 1}. {title}
                              </span>
                              <span className="struct__item-meta">
                                {FORM_FIELD_TYPE_LABEL[f.type]}
                                {f.required ? ', required' : ''}
                                {problems.length ? ' — needs attention' : ''}
                              </span>
                            </AriaButton>
                          </Heading>
                          {actions}
                        </div>
                        <DisclosurePanel className="struct__panel">
                          <div className="struct__grid">
                            <TextField
                              label="Label"
                              value={f.label}
                              isReadOnly={isReadOnly}
                              inputRef={(el) => {
                                if (el) labelInputs.current.set(entry.id, el);
                                else labelInputs.current.delete(entry.id);
                              }}
                              onChange={(label) =>
                                setField(entry.id, {
                                  label,
                                  ...(namedByHand.has(entry.id) ? {} : { name: nameFromLabel(label) || f.name }),
                                })
                              }
                            />
                            <TextField
                              label="Name"
                              description="Sent with the answer; letters, digits, “_” and “-”."
                              value={f.name}
                              isReadOnly={isReadOnly}
                              onChange={(name) => {
                                namedByHand.add(entry.id);
                                setField(entry.id, { name });
                              }}
                            />
                            <Select
                              label="Type"
                              options={FORM_FIELD_TYPES.map((t) => ({ id: t, label: FORM_FIELD_TYPE_LABEL[t] }))}
                              value={f.type}
                              isDisabled={isReadOnly}
                              onChange={(type) =>
                                setField(entry.id, {
                                  type,
                                  ...(TYPES_WITH_OPTIONS.includes(type) && !f.options?.length
                                    ? { options: ['Option 1', 'Option 2'] }
                                    : {}),
                                })
                              }
                            />
                            <div className="struct__switch">
                              <Switch
                                isSelected={Boolean(f.required)}
                                isReadOnly={isReadOnly}
                                onChange={(required) => setField(entry.id, { required })}
                              >
                                Required
                              </Switch>
                            </div>
                          </div>
                          {TYPES_WITH_OPTIONS.includes(f.type) && (
                            <StringListEditor
                              label={`Options of “${title}”`}
                              itemLabel="Option"
                              addLabel="Add an option"
                              isReadOnly={isReadOnly}
                              newId={newId}
                              items={optionItems(entry.id, f.options ?? [])}
                              onChange={(items) => {
                                optionIds.current.set(
                                  entry.id,
                                  items.map((x) => x.id),
                                );
                                setField(entry.id, { options: items.map((x) => x.text) });
                              }}
                            />
                          )}
                          {problems.length > 0 && (
                            <ul className="struct__problems" role="alert">
                              {problems.map((p) => (
                                <li key={p}>{p}</li>
                              ))}
                            </ul>
                          )}
                        </DisclosurePanel>
                      </Disclosure>
                    </li>
                  );
                })}
              </ol>
            )}
            {!isReadOnly && <AddFieldButton addRef={addButton} onAdd={add} />}
            {model.fields.some((e) => e.known) && <FormPreview fields={model.fields} />}
          </div>
        );
      }}
    </FieldShell>
  );
}

function uniqueName(base: string, model: FormModel): string {
  const taken = new Set(model.fields.flatMap((e) => (e.known ? [e.field.name] : [])));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}_${n}`)) n++;
  return `${base}_${n}`;
}

/** "Add a field" and the type of the new field. */
function AddFieldButton({
  addRef,
  onAdd,
}: {
  addRef: React.RefObject<HTMLButtonElement | null>;
  onAdd: (type: FormFieldType) => void;
}) {
  const [type, setType] = useState<FormFieldType>('text');
  return (
    <div className="struct__add">
      <Select
        label="Type of the new field"
        options={FORM_FIELD_TYPES.map((t) => ({ id: t, label: FORM_FIELD_TYPE_LABEL[t] }))}
        value={type}
        onChange={setType}
      />
      <Button ref={addRef} onPress={() => onAdd(type)}>
        <PlusIcon /> Add a field
      </Button>
    </div>
  );
}

/** The form as visitors will see it (inputs inert: it is a picture, not a form). */
function FormPreview({ fields }: { fields: readonly FieldEntry[] }) {
  return (
    <figure className="struct__preview">
      <figcaption className="struct__preview-title">Preview</figcaption>
      <div className="struct__preview-form" inert>
        {fields.map((e) =>
          e.known ? (
            <div key={e.id} className="struct__preview-field">
              {e.field.type === 'checkbox' ? (
                <label>
                  <input type="checkbox" tabIndex={-1} /> {e.field.label}
                  {e.field.required ? ' *' : ''}
                </label>
              ) : (
                <>
                  <span className="struct__preview-label">
                    {e.field.label}
                    {e.field.required ? ' *' : ''}
                  </span>
                  {e.field.type === 'textarea' ? (
                    <textarea rows={2} tabIndex={-1} />
                  ) : e.field.type === 'select' ? (
                    <select tabIndex={-1}>
                      {(e.field.options ?? []).map((o, k) => (
                        <option key={k}>{o}</option>
                      ))}
                    </select>
                  ) : e.field.type === 'radio' ? (
                    <span className="struct__preview-options">
                      {(e.field.options ?? []).map((o, k) => (
                        <label key={k}>
                          <input type="radio" tabIndex={-1} name={`${e.id}-preview`} /> {o}
                        </label>
                      ))}
                    </span>
                  ) : (
                    <input type={e.field.type} tabIndex={-1} />
                  )}
                </>
              )}
            </div>
          ) : null,
        )}
      </div>
    </figure>
  );
}
