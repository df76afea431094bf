import { useMemo, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { DatePicker, DateTimePicker, type DateFieldHandle } from '../../components/ui/date-picker';
import { InlineAlert } from '../../components/ui/inline-alert';
import type { FieldControlProps } from '../field-control';
import { formatServerDate, formatServerDateTime, parseServerDate, parseServerDateTime } from './date-values';
import { useFocusHandle } from './use-focus-handle';
import './date-controls.css';

/**
 * A value the server holds that this control cannot read (legacy data): said in words and kept until the user
 * picks a new date or clears it, never dropped on its own.
 */
function UnreadableValue({
  value,
  format,
  isReadOnly,
  onClear,
}: {
  value: string;
  format: string;
  isReadOnly?: boolean;
  onClear: () => void;
}) {
  return (
    <InlineAlert tone="info" title="Saved value not understood">
      <p>
        The saved value <code className="date-control__raw">{value}</code> is not a {format}.
        {isReadOnly ? ' It is kept as it is.' : ' It is kept until you choose a new one above or clear it.'}
      </p>
      {!isReadOnly && (
        <div className="date-control__actions">
          <Button size="sm" onPress={onClear}>
            Clear saved value
          </Button>
        </div>
      )}
    </InlineAlert>
  );
}

/** The kit's control for `editor: 'date'`: a date picker writing the server's MM/DD/YYYY (null when cleared). */
export function DateControl({ def, value, onChange, onBlur, errorMessage, isReadOnly, focusRef }: FieldControlProps) {
  const picker = useRef<DateFieldHandle>(null);
  useFocusHandle(focusRef, () => picker.current?.focus());
  const stored = value === '' ? null : value;
  const parsed = useMemo(() => (stored === null ? null : parseServerDate(stored)), [stored]);
  return (
    <div className="date-control">
      <DatePicker
        handleRef={picker}
        label={def.label}
        description={def.help}
        errorMessage={errorMessage}
        isRequired={def.required}
        isReadOnly={isReadOnly}
        value={parsed}
        onChange={(date) => onChange(date ? formatServerDate(date) : null)}
        onBlur={onBlur}
      />
      {stored !== null && parsed === null && (
        <UnreadableValue
          value={stored}
          format="date of the form MM/DD/YYYY"
          isReadOnly={isReadOnly}
          onClear={() => {
            onChange(null);
            picker.current?.focus();
          }}
        />
      )}
    </div>
  );
}

/**
 * The kit's control for `editor: 'datetime'`: date and time writing the server's `YYYY-MM-DD hh:mm:ss.s`. The
 * fraction of a second the server sent is written back as it was while the user leaves the seconds alone.
 */
export function DateTimeControl({
  def,
  value,
  onChange,
  onBlur,
  errorMessage,
  isReadOnly,
  focusRef,
}: FieldControlProps) {
  const picker = useRef<DateFieldHandle>(null);
  useFocusHandle(focusRef, () => picker.current?.focus());
  const stored = value === '' ? null : value;
  const parsed = useMemo(() => (stored === null ? null : parseServerDateTime(stored)), [stored]);
  // Seconds are shown when the value has some, so a stored 13:30:07 is not displayed as 13:30. Once shown they
  // stay, so the segment does not vanish under the user's cursor when they type 00.
  const hasSeconds = parsed !== null && parsed.value.second !== 0;
  const [showSeconds, setShowSeconds] = useState(hasSeconds);
  if (hasSeconds && !showSeconds) setShowSeconds(true);
  return (
    <div className="date-control">
      <DateTimePicker
        handleRef={picker}
        label={def.label}
        description={def.help}
        errorMessage={errorMessage}
        isRequired={def.required}
        isReadOnly={isReadOnly}
        showSeconds={showSeconds}
        value={parsed?.value ?? null}
        onChange={(dateTime) => onChange(dateTime ? formatServerDateTime(dateTime, parsed) : null)}
        onBlur={onBlur}
      />
      {stored !== null && parsed === null && (
        <UnreadableValue
          value={stored}
          format="date and time of the form YYYY-MM-DD hh:mm:ss"
          isReadOnly={isReadOnly}
          onClear={() => {
            onChange(null);
            picker.current?.focus();
          }}
        />
      )}
    </div>
  );
}
