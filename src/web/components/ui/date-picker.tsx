import { useEffect, useImperativeHandle, useRef, useState, type ReactNode, type Ref } from 'react';
import {
  Button as AriaButton,
  Calendar,
  CalendarCell,
  CalendarGrid,
  CalendarGridBody,
  CalendarGridHeader,
  CalendarHeaderCell,
  DateInput,
  DatePicker as AriaDatePicker,
  DateSegment,
  Dialog,
  FieldError,
  Group,
  Heading,
  Label,
  Popover,
  Text,
  type DateValue,
} from 'react-aria-components';
import { CalendarIcon, ChevronLeftIcon, ChevronRightIcon, CloseIcon } from './icons';
import './date-picker.css';

/** Moves the keyboard focus into a date field (its first segment). */
export interface DateFieldHandle {
  focus(): void;
}

/** What both pickers take; the value is any `@internationalized/date` value (CalendarDate, CalendarDateTime, ZonedDateTime). */
export interface DatePickerBaseProps<T extends DateValue> {
  label: string;
  /** A line under the field (what the date is for). */
  description?: ReactNode;
  /** Shown under the field and marks it invalid. */
  errorMessage?: string;
  value: T | null;
  /** Called with the new value when the user completes a date, picks one, or clears the field (null). */
  onChange: (value: T | null) => void;
  /** When the focus leaves the whole field (segments, buttons and calendar). */
  onBlur?: () => void;
  isRequired?: boolean;
  isReadOnly?: boolean;
  isDisabled?: boolean;
  minValue?: DateValue;
  maxValue?: DateValue;
  isDateUnavailable?: (date: DateValue) => boolean;
  /** What an empty field starts from when the user types or opens the calendar (defaults to today). */
  placeholderValue?: T;
  /** A button that empties the field (default true; hidden while the field is empty or read-only). */
  isClearable?: boolean;
  autoFocus?: boolean;
  name?: string;
  className?: string;
  /** Receives a handle to move the focus into the field. */
  handleRef?: Ref<DateFieldHandle>;
}

export type DatePickerProps<T extends DateValue> = DatePickerBaseProps<T>;

export interface DateTimePickerProps<T extends DateValue> extends DatePickerBaseProps<T> {
  /** Show and edit seconds too (default: hours and minutes). */
  showSeconds?: boolean;
}

/** The first editable segment of a date input (segments are spinbuttons; literals are aria-hidden). */
function firstSegment(group: HTMLElement | null): HTMLElement | null {
  return group?.querySelector<HTMLElement>('[data-type]:not([data-type="literal"])') ?? null;
}

function PickerField<T extends DateValue>({
  label,
  description,
  errorMessage,
  value,
  onChange,
  onBlur,
  isClearable = true,
  className,
  handleRef,
  granularity,
  ...props
}: DatePickerBaseProps<T> & { granularity: 'day' | 'minute' | 'second' }) {
  const inputRef = useRef<HTMLDivElement>(null);
  // A date typed half-way (month and day, no year yet) lives inside DateInput's own state and is not a value,
  // so "clear" remounts the input to forget it as well.
  const [inputKey, setInputKey] = useState(0);
  const [refocus, setRefocus] = useState(false);
  useImperativeHandle(handleRef, () => ({ focus: () => firstSegment(inputRef.current)?.focus() }), []);
  useEffect(() => {
    if (!refocus) return;
    setRefocus(false);
    firstSegment(inputRef.current)?.focus();
  }, [refocus]);

  const handleClear = () => {
    setInputKey((k) => k + 1);
    setRefocus(true);
    if (value !== null) onChange(null);
  };
  const isEditable = !props.isReadOnly && !props.isDisabled;

  return (
    <AriaDatePicker<T>
      {...props}
      value={value}
      // react-aria answers in the class of the value it was given (MappedDateValue<T> is T for each of them).
      onChange={(next) => onChange(next as T | null)}
      onBlur={onBlur}
      granularity={granularity}
      // Leading zeros keep the field one width as the user types ("05/01/2026"); the order stays the locale's.
      shouldForceLeadingZeros
      // The page editor's form library judges the form; native constraint checks would block its submit.
      validationBehavior="aria"
      isInvalid={errorMessage ? true : undefined}
      className={['field', 'date-picker', className ?? ''].filter(Boolean).join(' ')}
    >
      <span className="field__label-row">
        <Label className="field__label">{label}</Label>
        {props.isRequired && (
          <span className="field__required" aria-hidden="true">
            *
          </span>
        )}
      </span>
      <Group className="date-picker__group">
        <DateInput key={inputKey} ref={inputRef} className="date-picker__input">
          {(segment) => <DateSegment segment={segment} className="date-picker__segment" />}
        </DateInput>
        {isEditable && isClearable && (
          // slot={null}: outside the picker's button slot, which would make it open the calendar.
          <AriaButton
            slot={null}
            className="date-picker__button date-picker__clear"
            aria-label={`Clear ${label}`}
            onPress={handleClear}
          >
            <CloseIcon />
          </AriaButton>
        )}
        {isEditable && (
          <AriaButton className="date-picker__button" aria-label="Choose from a calendar">
            <CalendarIcon />
          </AriaButton>
        )}
      </Group>
      {/* Shown by CSS while some segments are filled and others not: react-aria keeps the previous value
          until the date is complete, and a half-typed date would otherwise look like the saved one. */}
      {isEditable && (
        <span className="date-picker__incomplete">
          Unfinished: complete the {granularity === 'day' ? 'date' : 'date and time'} or clear it.
        </span>
      )}
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
      <Popover className="popover date-picker__popover" offset={4}>
        <Dialog className="date-picker__dialog" aria-label={`${label}: calendar`}>
          <Calendar className="calendar">
            <header className="calendar__header">
              <AriaButton slot="previous" className="date-picker__button" aria-label="Previous month">
                <ChevronLeftIcon />
              </AriaButton>
              <Heading className="calendar__heading" />
              <AriaButton slot="next" className="date-picker__button" aria-label="Next month">
                <ChevronRightIcon />
              </AriaButton>
            </header>
            <CalendarGrid className="calendar__grid">
              <CalendarGridHeader>
                {(day) => <CalendarHeaderCell className="calendar__weekday">{day}</CalendarHeaderCell>}
              </CalendarGridHeader>
              <CalendarGridBody>{(date) => <CalendarCell date={date} className="calendar__cell" />}</CalendarGridBody>
            </CalendarGrid>
          </Calendar>
        </Dialog>
      </Popover>
    </AriaDatePicker>
  );
}

/**
 * A labelled date field (react-aria DatePicker): segments in the user's locale order, typed or changed with the
 * arrow keys, a calendar in a popover, and a clear button.
 */
export function DatePicker<T extends DateValue>(props: DatePickerProps<T>) {
  return <PickerField {...props} granularity="day" />;
}

/** A labelled date and time field: the date picker with hour and minute (and optionally second) segments. */
export function DateTimePicker<T extends DateValue>({ showSeconds, ...props }: DateTimePickerProps<T>) {
  return <PickerField {...props} granularity={showSeconds ? 'second' : 'minute'} />;
}
