import type { CalendarDate, CalendarDateTime } from '@internationalized/date';
import {
  Button as AriaButton,
  Calendar,
  CalendarCell,
  CalendarGrid,
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
} from 'react-aria-components';
import { CalendarIcon, ChevronRightIcon, CloseIcon } from './icons';

export interface DatePickerProps<T extends CalendarDate | CalendarDateTime> {
  label: string;
  value: T | null;
  onChange: (value: T | null) => void;
  /** 'day' for a date; 'minute' or 'second' for a date and time. */
  granularity?: 'day' | 'minute' | 'second';
  description?: string;
  errorMessage?: string;
  isRequired?: boolean;
  isReadOnly?: boolean;
  name?: string;
  onBlur?: () => void;
  /** Receives the field's first segment, so a form can focus the field. */
  inputRef?: (el: HTMLElement | null) => void;
}

/**
 * A date (or date and time) field: typed segment by segment in the reader's locale, or picked in a calendar that
 * opens from the button (react-aria: arrow keys move through days, Page Up/Down through months). A clear button
 * unsets an optional value.
 */
export function DatePicker<T extends CalendarDate | CalendarDateTime>({
  label,
  value,
  onChange,
  granularity = 'day',
  description,
  errorMessage,
  isRequired,
  isReadOnly,
  name,
  onBlur,
  inputRef,
}: DatePickerProps<T>) {
  return (
    <AriaDatePicker<T>
      className="field date-picker"
      value={value}
      onChange={(v) => onChange(v as T | null)}
      granularity={granularity}
      hourCycle={24}
      isRequired={isRequired}
      isReadOnly={isReadOnly}
      isInvalid={Boolean(errorMessage)}
      name={name}
      onBlur={onBlur}
      shouldForceLeadingZeros
    >
      <span className="field__label-row">
        <Label className="field__label">{label}</Label>
        {isRequired && (
          <span className="field__required" aria-hidden="true">
            *
          </span>
        )}
      </span>
      <Group className="date-picker__group">
        <DateInput
          className="date-picker__input"
          ref={(el) => inputRef?.(el?.querySelector('[role="spinbutton"]') ?? el)}
        >
          {(segment) => <DateSegment segment={segment} className="date-picker__segment" />}
        </DateInput>
        {value !== null && !isRequired && !isReadOnly && (
          <AriaButton
            className="date-picker__button"
            aria-label={`Clear ${label.toLowerCase()}`}
            onPress={() => onChange(null)}
          >
            <CloseIcon />
          </AriaButton>
        )}
        {!isReadOnly && (
          <AriaButton className="date-picker__button" aria-label={`Open the calendar of ${label.toLowerCase()}`}>
            <CalendarIcon />
          </AriaButton>
        )}
      </Group>
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
      <Popover className="popover date-picker__popover" offset={4}>
        <Dialog className="date-picker__dialog" aria-label={`Calendar of ${label.toLowerCase()}`}>
          <Calendar className="calendar">
            <header className="calendar__header">
              <AriaButton slot="previous" className="calendar__nav" aria-label="Previous month">
                <ChevronRightIcon className="calendar__prev-icon" />
              </AriaButton>
              <Heading className="calendar__heading" />
              <AriaButton slot="next" className="calendar__nav" aria-label="Next month">
                <ChevronRightIcon />
              </AriaButton>
            </header>
            <CalendarGrid className="calendar__grid">
              {(date) => <CalendarCell date={date} className="calendar__cell" />}
            </CalendarGrid>
          </Calendar>
        </Dialog>
      </Popover>
    </AriaDatePicker>
  );
}
