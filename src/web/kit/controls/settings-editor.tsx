import { useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { FieldShell } from '../../components/ui/field-shell';
import { PlusIcon, TrashIcon } from '../../components/ui/icons';
import { Switch } from '../../components/ui/switch';
import type { FieldControlProps } from '../field-control';
import {
  changeKind,
  EDITABLE_KINDS,
  newSetting,
  parseSettings,
  serialiseSettings,
  SETTING_KIND_LABELS,
  settingsProblems,
  type SettingRow,
  type SettingsModel,
} from './settings-editor-data';
import {
  afterPointerRelease,
  blurWithin,
  EmptyList,
  InlineSelect,
  InlineTextInput,
  StoredValueProblem,
  useAnnouncer,
  useFocusTargets,
} from './structured-parts';
import { useFocusHandle } from './use-focus-handle';
import { useStructuredValue } from './use-structured-value';
import './settings-editor.css';

const KIND_OPTIONS = EDITABLE_KINDS.map((kind) => ({ id: kind, label: SETTING_KIND_LABELS[kind] }));

/** What a list, object or null is called in the type column. */
function jsonKindLabel(value: unknown): string {
  if (value === null) return 'Empty (null)';
  return Array.isArray(value) ? 'List' : 'Object';
}

const settingName = (row: SettingRow, index: number) => (row.name ? `“${row.name}”` : `setting ${index + 1}`);

/**
 * The kit's control for `structure: 'settings'` (a flat JSON object, the comments form's `formdata`): a table of
 * names and values. Values are text, numbers or true/false and keep their JSON type; lists, objects and null are
 * shown and kept. While a name is missing or taken, or a number is not one, the table says so and nothing is
 * written (the last complete settings stay the field's value).
 */
export function SettingsEditor({
  def,
  value,
  onChange,
  onBlur,
  errorMessage,
  isReadOnly,
  focusRef,
}: FieldControlProps) {
  const { parsed, source, update, replace } = useStructuredValue({
    value,
    onChange,
    parse: parseSettings,
    serialise: serialiseSettings,
  });
  const { register, focusLater } = useFocusTargets();
  const { announce, region } = useAnnouncer();
  const startOverRef = useRef<HTMLButtonElement>(null);
  const firstTarget = useRef<HTMLElement | null>(null);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const touch = (key: string) => setTouched((t) => (t.has(key) ? t : new Set(t).add(key)));

  // A failed save gives the field an error: from then on every problem shows, untouched new rows included.
  const [revealed, setRevealed] = useState(false);
  const [previousError, setPreviousError] = useState(errorMessage);
  if (errorMessage !== previousError) {
    setPreviousError(errorMessage);
    if (errorMessage) setRevealed(true);
  }

  useFocusHandle(focusRef, () => (parsed.ok ? firstTarget.current : startOverRef.current)?.focus());

  return (
    <FieldShell
      label={def.label}
      description={def.help}
      errorMessage={errorMessage}
      isRequired={def.required}
      group
      className="settings-editor"
    >
      {() => {
        if (!parsed.ok)
          return (
            <StoredValueProblem
              subject="These settings"
              reason={parsed.reason}
              value={source ?? ''}
              isReadOnly={isReadOnly}
              startOverRef={startOverRef}
              startOverLabel="no settings"
              onStartOver={() => {
                replace({ rows: [] });
                focusLater('add');
              }}
            />
          );
        const { rows } = parsed.model;
        const problems = settingsProblems(parsed.model);
        const editRow = (id: string, fn: (row: SettingRow) => SettingRow) =>
          update((m: SettingsModel) => ({ rows: m.rows.map((r) => (r.id === id ? fn(r) : r)) }));
        const add = () => {
          const row = newSetting();
          update((m) => ({ rows: [...m.rows, row] }));
          focusLater(`${row.id}:name`);
        };
        const remove = (index: number) => {
          const row = rows[index]!;
          update((m) => ({ rows: m.rows.filter((r) => r.id !== row.id) }));
          const next = rows[index + 1] ?? rows[index - 1];
          focusLater(...(next ? [`${next.id}:remove`] : []), 'add');
          announce(`${settingName(row, index)} removed.`);
        };
        const registerFirst = (key: string, isFirst: boolean) => (el: HTMLElement | null) => {
          if (isFirst && el?.isConnected !== false) firstTarget.current = el;
          return register(key)(el);
        };
        // New rows show "give it a name" once the user has left the name (or a save failed); stored ones at once.
        const nameError = (row: SettingRow) =>
          row.source !== undefined || revealed || touched.has(row.id) ? problems.get(row.id)?.name : undefined;

        return (
          <div className="settings-editor__body" onBlur={blurWithin(onBlur)}>
            {rows.length === 0 ? (
              <EmptyList>No settings yet.</EmptyList>
            ) : (
              <div className="settings-editor__scroll">
                <table className="settings-table">
                  <thead>
                    <tr>
                      <th scope="col" className="settings-table__name">
                        Name
                      </th>
                      <th scope="col" className="settings-table__kind">
                        Type
                      </th>
                      <th scope="col">Value</th>
                      {!isReadOnly && (
                        <th scope="col">
                          <span className="visually-hidden">Remove</span>
                        </th>
                      )}
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((row, index) => {
                      const n = index + 1;
                      return (
                        <tr key={row.id}>
                          <td className="settings-table__name">
                            <InlineTextInput
                              label={`Name of setting ${n}`}
                              value={row.name}
                              placeholder="name"
                              isReadOnly={isReadOnly}
                              inputRef={registerFirst(`${row.id}:name`, index === 0)}
                              errorMessage={nameError(row)}
                              onChange={(name) => {
                                touch(row.id);
                                editRow(row.id, (r) => ({ ...r, name }));
                              }}
                              onBlur={() => afterPointerRelease(() => touch(row.id))}
                            />
                          </td>
                          <td className="settings-table__kind">
                            {row.kind === 'json' ? (
                              <span className="settings-table__fixed">{jsonKindLabel(row.source)}</span>
                            ) : (
                              <InlineSelect
                                label={`Type of setting ${n}`}
                                options={KIND_OPTIONS}
                                value={row.kind}
                                isDisabled={isReadOnly}
                                onChange={(kind) => editRow(row.id, (r) => changeKind(r, kind))}
                              />
                            )}
                          </td>
                          <td className="settings-table__value">
                            <SettingValue
                              row={row}
                              label={`Value of setting ${n}`}
                              errorMessage={problems.get(row.id)?.value}
                              isReadOnly={isReadOnly}
                              onChange={(patch) => editRow(row.id, (r) => ({ ...r, ...patch, isEdited: true }))}
                            />
                          </td>
                          {!isReadOnly && (
                            <td className="settings-table__actions">
                              <Button
                                variant="quiet"
                                size="sm"
                                iconOnly
                                className="item-actions__remove"
                                aria-label={`Remove ${settingName(row, index)}`}
                                onPress={() => remove(index)}
                                ref={register(`${row.id}:remove`)}
                              >
                                <TrashIcon />
                              </Button>
                            </td>
                          )}
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            )}
            {problems.size > 0 && (
              <p className="settings-editor__pending">
                Until the highlighted settings are fixed, the field keeps its last complete settings.
              </p>
            )}
            {!isReadOnly && (
              <div>
                <Button variant="secondary" size="sm" onPress={add} ref={registerFirst('add', rows.length === 0)}>
                  <PlusIcon /> Add setting
                </Button>
              </div>
            )}
            {region}
          </div>
        );
      }}
    </FieldShell>
  );
}

/** The value cell: a text input, a number input, a switch, or a list/object/null shown as it is. */
function SettingValue({
  row,
  label,
  errorMessage,
  isReadOnly,
  onChange,
}: {
  row: SettingRow;
  label: string;
  errorMessage?: string;
  isReadOnly?: boolean;
  onChange: (patch: Partial<Pick<SettingRow, 'text' | 'bool'>>) => void;
}) {
  switch (row.kind) {
    case 'boolean':
      return (
        <Switch
          aria-label={label}
          isSelected={row.bool}
          isReadOnly={isReadOnly}
          onChange={(bool) => onChange({ bool })}
        >
          {row.bool ? 'True' : 'False'}
        </Switch>
      );
    case 'json':
      return (
        <code className="settings-table__json" title={JSON.stringify(row.source, null, 2)}>
          {JSON.stringify(row.source)}
        </code>
      );
    default:
      return (
        <InlineTextInput
          label={label}
          value={row.text}
          isReadOnly={isReadOnly}
          inputMode={row.kind === 'number' ? 'decimal' : 'text'}
          errorMessage={errorMessage}
          onChange={(text) => onChange({ text })}
        />
      );
  }
}
