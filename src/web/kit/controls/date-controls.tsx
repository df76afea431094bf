import { CalendarDate, CalendarDateTime } from '@internationalized/date';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { DatePicker } from '../../components/ui/date-picker';
import { InlineAlert } from '../../components/ui/inline-alert';
import type { FieldControlProps } from '../field-control';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,3})?$/;

/** `MM/DD/YYYY` → a calendar date; null when it does not parse or is no real day. */
export function parseFieldDate(value: string): CalendarDate | null {
  const m = DATE.exec(value);
  if (!m) return null;
  const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new CalendarDate(year, month, day);
  return date.month === month && date.day === day ? date : null;
}

/** A calendar date → `MM/DD/YYYY`. */
export function formatFieldDate(date: CalendarDate): string {
  return `${pad(date.month)}/${pad(date.day)}/${pad(date.year, 4)}`;
}

/** `YYYY-MM-DD hh:mm:ss.s` → a date and time (and the fraction it was written with); null when it does not parse. */
export function parseFieldDateTime(value: string): { value: CalendarDateTime; fraction: string } | null {
  const m = DATETIME.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const dt = new CalendarDateTime(y, mo, d, h, mi, s);
  if (dt.month !== mo || dt.day !== d || h > 23 || mi > 59 || s > 59) return null;
  return { value: dt, fraction: m[7] ?? '' };
}

/** A date and time → `YYYY-MM-DD hh:mm:ss.s` (`fraction` as it was stored, `.0` when there was none). */
export function formatFieldDateTime(dt: CalendarDateTime, fraction = ''): string {
  return `${pad(dt.year, 4)}-${pad(dt.month)}-${pad(dt.day)} ${pad(dt.hour)}:${pad(dt.minute)}:${pad(dt.second)}${fraction || '.0'}`;
}

/** A stored value this field cannot read: said, shown, and kept until the user replaces or clears it. */
function Unreadable({ props, what, onReplace }: { props: FieldControlProps; what: string; onReplace: () => void }) {
  return (
    <div className="field">
      <span className="field__label">{props.def.label}</span>
      <InlineAlert tone="info" title={`“${props.value}” is not ${what}`}>
        <p>It is kept as it is until you replace it.</p>
        {props.errorMessage && <p className="field__error">{props.errorMessage}</p>}
        {!props.isReadOnly && (
          <p className="date-control__actions">
            <Button size="sm" onPress={onReplace}>
              Replace it
            </Button>
            <Button size="sm" variant="quiet" onPress={() => props.onChange(null)}>
              Clear it
            </Button>
          </p>
        )}
      </InlineAlert>
    </div>
  );
}

/** `date`: a date picker writing `MM/DD/YYYY` (shown in the reader's own order); clearing writes null. */
export function DateControl(props: FieldControlProps) {
  const { def, value, onChange, onBlur, errorMessage, isReadOnly, focusRef } = props;
  const [replacing, setReplacing] = useState(false);
  const parsed = value ? parseFieldDate(value) : null;
  if (value && !parsed && !replacing) {
    return <Unreadable props={props} what="a date (MM/DD/YYYY)" onReplace={() => setReplacing(true)} />;
  }
  return (
    <DatePicker<CalendarDate>
      label={def.label}
      name={def.key}
      value={parsed}
      onChange={(d) => onChange(d ? formatFieldDate(d) : null)}
      onBlur={onBlur}
      description={def.help}
      errorMessage={errorMessage}
      isRequired={def.required}
      isReadOnly={isReadOnly}
      inputRef={(el) => focusRef?.(el)}
    />
  );
}

/**
 * `datetime`: a date and time (to the second) writing `YYYY-MM-DD hh:mm:ss.s`; the fraction of a second the server
 * holds is kept when the user changes the rest.
 */
export function DateTimeControl(props: FieldControlProps) {
  const { def, value, onChange, onBlur, errorMessage, isReadOnly, focusRef } = props;
  const [replacing, setReplacing] = useState(false);
  const parsed = value ? parseFieldDateTime(value) : null;
  if (value && !parsed && !replacing) {
    return (
      <Unreadable props={props} what="a date and time (YYYY-MM-DD hh:mm:ss)" onReplace={() => setReplacing(true)} />
    );
  }
  return (
    <DatePicker<CalendarDateTime>
      label={def.label}
      name={def.key}
      granularity="second"
      value={parsed?.value ?? null}
      // The stored fraction of a second stays while the seconds do.
      onChange={(d) =>
        onChange(d ? formatFieldDateTime(d, parsed && d.second === parsed.value.second ? parsed.fraction : '') : null)
      }
      onBlur={onBlur}
      description={def.help}
      errorMessage={errorMessage}
      isRequired={def.required}
      isReadOnly={isReadOnly}
      inputRef={(el) => focusRef?.(el)}
    />
  );
}
