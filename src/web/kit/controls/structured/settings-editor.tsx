import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FieldShell } from '../../../components/ui/field-shell';
import { PlusIcon } from '../../../components/ui/icons';
import { Select } from '../../../components/ui/select';
import { Switch } from '../../../components/ui/switch';
import { TextField } from '../../../components/ui/text-field';
import type { FieldControlProps } from '../../field-control';
import { moveItem, useJsonModel } from './json-model';
import { ItemActions, UnreadableJson, useMoveFocus } from './list-parts';
import {
  convertValue,
  newSettingId,
  parseSettings,
  serializeSettings,
  settingProblem,
  type Setting,
  type SettingKind,
} from './settings-model';
import './structured.css';

const KIND_OPTIONS: { id: Exclude<SettingKind, 'kept'>; label: string }[] = [
  { id: 'text', label: 'Text' },
  { id: 'number', label: 'Number' },
  { id: 'boolean', label: 'On or off' },
];

/**
 * `json-structured` / settings: a flat object of named settings (the comments form's internal data) — added,
 * renamed, edited and removed, each value kept with its JSON type; lists and objects inside are shown and kept.
 */
export function SettingsEditorControl(props: FieldControlProps) {
  const { def, value, onChange, errorMessage, isReadOnly, focusRef } = props;
  const { parsed, update } = useJsonModel(value, parseSettings, serializeSettings, onChange);
  const focus = useMoveFocus();
  const addButton = useRef<HTMLButtonElement>(null);
  const nameInputs = useRef(new Map<string, HTMLInputElement>());
  const toFocus = useRef<string | null>(null);
  useEffect(() => {
    focusRef?.({ focus: () => addButton.current?.focus() });
    return () => focusRef?.(null);
  }, [focusRef]);
  useEffect(() => {
    if (!toFocus.current) return;
    nameInputs.current.get(toFocus.current)?.focus();
    toFocus.current = null;
  });

  return (
    <FieldShell label={def.label} description={def.help} errorMessage={errorMessage} isRequired={def.required} group>
      {() => {
        if (!parsed.ok) {
          return (
            <UnreadableJson
              message={parsed.message}
              json={value}
              what="set of settings"
              isReadOnly={isReadOnly}
              onStartOver={() => update([])}
            />
          );
        }
        const settings = parsed.model;
        const set = (id: string, patch: Partial<Setting>) =>
          update(settings.map((s) => (s.id === id ? { ...s, ...patch } : s)));
        return (
          <div className="struct">
            {settings.length === 0 ? (
              <p className="struct__empty">No settings yet.</p>
            ) : (
              <ol className="struct__items">
                {settings.map((s, i) => {
                  const problem = settingProblem(s, settings);
                  return (
                    <li key={s.id} className="struct__item struct__setting" data-invalid={problem ? true : undefined}>
                      <TextField
                        label="Name"
                        value={s.name}
                        isReadOnly={isReadOnly}
                        errorMessage={problem ?? undefined}
                        onChange={(name) => set(s.id, { name })}
                        inputRef={(el) => {
                          if (el) nameInputs.current.set(s.id, el);
                          else nameInputs.current.delete(s.id);
                        }}
                      />
                      {s.kind === 'kept' ? (
                        <div className="field">
                          <span className="field__label">Value (a list or group, kept as it is)</span>
                          <pre className="struct__json">{JSON.stringify(s.value)}</pre>
                        </div>
                      ) : (
                        <>
                          <Select
                            label="Kind"
                            options={KIND_OPTIONS}
                            value={s.kind}
                            isDisabled={isReadOnly}
                            onChange={(kind) => set(s.id, { kind, value: convertValue(s.value, kind) })}
                          />
                          {s.kind === 'boolean' ? (
                            <div className="struct__switch">
                              <Switch
                                isSelected={s.value === true}
                                isReadOnly={isReadOnly}
                                onChange={(on) => set(s.id, { value: on })}
                              >
                                {s.value === true ? 'On' : 'Off'}
                              </Switch>
                            </div>
                          ) : s.kind === 'number' ? (
                            <NumberSetting
                              value={typeof s.value === 'number' ? s.value : 0}
                              isReadOnly={isReadOnly}
                              onChange={(value) => set(s.id, { value })}
                            />
                          ) : (
                            <TextField
                              label="Value"
                              value={String(s.value ?? '')}
                              isReadOnly={isReadOnly}
                              onChange={(value) => set(s.id, { value })}
                            />
                          )}
                        </>
                      )}
                      <ItemActions
                        name={`the setting “${s.name || i + 1}”`}
                        index={i}
                        count={settings.length}
                        isReadOnly={isReadOnly}
                        registerButton={focus.register(s.id)}
                        onMove={(from, to, which) => {
                          focus.focusAfterRender(s.id, which);
                          update(moveItem(settings, from, to));
                        }}
                        onRemove={() => {
                          update(settings.filter((x) => x.id !== s.id));
                          addButton.current?.focus();
                        }}
                      />
                    </li>
                  );
                })}
              </ol>
            )}
            {!isReadOnly && (
              <Button
                ref={addButton}
                size="sm"
                onPress={() => {
                  const id = newSettingId();
                  toFocus.current = id;
                  update([...settings, { id, name: '', kind: 'text', value: '' }]);
                }}
              >
                <PlusIcon /> Add a setting
              </Button>
            )}
          </div>
        );
      }}
    </FieldShell>
  );
}

/** A number setting: the text as typed; the stored number follows whenever the text is one. */
function NumberSetting({
  value,
  onChange,
  isReadOnly,
}: {
  value: number;
  onChange: (value: number) => void;
  isReadOnly?: boolean;
}) {
  const [text, setText] = useState(String(value));
  const isNumber = text.trim() !== '' && Number.isFinite(Number(text));
  return (
    <TextField
      label="Value"
      value={text}
      inputMode="decimal"
      isReadOnly={isReadOnly}
      errorMessage={isNumber ? undefined : 'Enter a number; the last one stays until then.'}
      onChange={(t) => {
        setText(t);
        const n = Number(t);
        if (t.trim() !== '' && Number.isFinite(n)) onChange(n);
      }}
    />
  );
}
