import { CalendarDateTime, parseZonedDateTime, type ZonedDateTime } from '@internationalized/date';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DatePicker, DateTimePicker } from './date-picker';

function segmentsOf(label: string) {
  return within(screen.getByRole('group', { name: label })).getAllByRole('spinbutton');
}

describe('DatePicker', () => {
  it('forgets a date typed half-way when the user clears it, and reports no change', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<DatePicker label="Post date" value={null} onChange={onChange} />);
    const [month] = segmentsOf('Post date');
    await user.click(month!);
    await user.keyboard('0512');
    expect(segmentsOf('Post date').filter((s) => !s.hasAttribute('data-placeholder'))).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Clear Post date' }));
    expect(segmentsOf('Post date').every((s) => s.hasAttribute('data-placeholder'))).toBe(true);
    expect(onChange).not.toHaveBeenCalled();
    // Focus returns to the field, so the user can type the date again straight away.
    expect(document.activeElement).toBe(segmentsOf('Post date')[0]);
  });
});

describe('DateTimePicker', () => {
  it('edits a zoned date-time and answers in the same class', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    function Host() {
      const [value, setValue] = useState<ZonedDateTime | null>(parseZonedDateTime('2026-05-01T13:30[Europe/Paris]'));
      return (
        <DateTimePicker
          label="Published"
          value={value}
          onChange={(v) => {
            onChange(v);
            setValue(v);
          }}
        />
      );
    }
    render(<Host />);
    const minute = segmentsOf('Published').find((s) => s.getAttribute('data-type') === 'minute')!;
    await user.click(minute);
    await user.keyboard('{ArrowUp}');
    const next = onChange.mock.lastCall![0] as ZonedDateTime;
    expect(next.toString()).toBe('2026-05-01T13:31:00+02:00[Europe/Paris]');
  });

  it('shows seconds only when asked', () => {
    const value = new CalendarDateTime(2026, 5, 1, 13, 30, 15);
    const { rerender } = render(<DateTimePicker label="At" value={value} onChange={() => undefined} />);
    expect(segmentsOf('At').some((s) => s.getAttribute('data-type') === 'second')).toBe(false);
    rerender(<DateTimePicker label="At" value={value} onChange={() => undefined} showSeconds />);
    expect(segmentsOf('At').find((s) => s.getAttribute('data-type') === 'second')?.textContent).toBe('15');
  });
});
