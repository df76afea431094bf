import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nProvider } from 'react-aria-components';
import { describe, expect, it, vi } from 'vitest';
import { assetTypeDef, checkFieldValue, type FieldDef } from '../../../shared/registry';
import { renderControl } from '../../test/render-control';
import type { Focusable } from '../field-control';
import { DateControl, DateTimeControl } from './date-controls';

function fieldOf(type: string, key: string): FieldDef {
  const def = assetTypeDef(type)?.fields.find((f) => f.key === key);
  if (!def) throw new Error(`${type}.${key} is not in the registry`);
  return def;
}

// Fields from the registry, so the values are checked against what the server checks.
const PUBLISHED_AFTER = fieldOf('cmsArchiveList', 'query_published_after'); // date, optional
const STARTS = fieldOf('cmsEventAsset', 'start_time'); // datetime, required

/** The editable segments of the field named `label`, by their type ("month", "day", "year", "hour"…). */
function segments(label: string) {
  const group = screen.getByRole('group', { name: label });
  const all = within(group).getAllByRole('spinbutton');
  const byType = (type: string) => {
    const found = all.find((s) => s.getAttribute('data-type') === type);
    if (!found) throw new Error(`no ${type} segment`);
    return found;
  };
  return { all, byType, text: () => all.map((s) => s.textContent).join(' ') };
}

describe('DateControl', () => {
  it('shows the server value in the fields and writes nothing on load', () => {
    const { onChange } = renderControl(DateControl, PUBLISHED_AFTER, '05/01/2026');
    const s = segments('Published after');
    expect(s.byType('month').textContent).toBe('05');
    expect(s.byType('day').textContent).toBe('01');
    expect(s.byType('year').textContent).toBe('2026');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('writes MM/DD/YYYY that the server accepts when the user types a date', async () => {
    const { onChange, user } = renderControl(DateControl, PUBLISHED_AFTER, null);
    await user.click(segments('Published after').byType('month'));
    await user.keyboard('03072026');
    expect(onChange).toHaveBeenLastCalledWith('03/07/2026');
    expect(checkFieldValue(PUBLISHED_AFTER, onChange.mock.lastCall![0])).toBeNull();
  });

  it('changes one part with the arrow keys and keeps the others', async () => {
    const { onChange, user } = renderControl(DateControl, PUBLISHED_AFTER, '12/31/2025');
    await user.click(segments('Published after').byType('day'));
    await user.keyboard('{ArrowDown}');
    expect(onChange).toHaveBeenLastCalledWith('12/30/2025');
  });

  it('picks a date from the calendar with the keyboard', async () => {
    const { onChange, user } = renderControl(DateControl, PUBLISHED_AFTER, '05/01/2026');
    await user.click(screen.getByRole('button', { name: /Choose from a calendar/ }));
    const grid = await screen.findByRole('grid');
    expect(document.activeElement?.textContent).toBe('1');
    expect(within(grid).getAllByRole('gridcell').length).toBeGreaterThan(27);
    await user.keyboard('{ArrowRight}{ArrowRight}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('05/03/2026');
  });

  it('clears to null (unset) with the clear button', async () => {
    const { onChange, user } = renderControl(DateControl, PUBLISHED_AFTER, '05/01/2026');
    await user.click(screen.getByRole('button', { name: 'Clear Published after' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(segments('Published after').byType('year').getAttribute('data-placeholder')).toBe('true');
  });

  it('keeps a value it cannot read, says so, and clears it only when asked', async () => {
    const { onChange, user } = renderControl(DateControl, PUBLISHED_AFTER, '2026-05-01');
    expect(screen.getByText('2026-05-01')).toBeTruthy();
    expect(screen.getByText(/is not a date of the form MM\/DD\/YYYY/)).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Clear saved value' }));
    expect(onChange).toHaveBeenCalledWith(null);
    expect(screen.queryByText(/Saved value not understood/)).toBeNull();
  });

  it('replaces a value it cannot read when the user types a date', async () => {
    const { onChange, user } = renderControl(DateControl, PUBLISHED_AFTER, '13/45/2026');
    await user.click(segments('Published after').byType('month'));
    await user.keyboard('01022027');
    expect(onChange).toHaveBeenLastCalledWith('01/02/2027');
    expect(screen.queryByText(/Saved value not understood/)).toBeNull();
  });

  it('shows the error it is given, the required mark and the help', () => {
    renderControl(DateControl, { ...PUBLISHED_AFTER, required: true, help: 'The earliest day.' }, null, {
      errorMessage: 'must be a date of the form MM/DD/YYYY',
    });
    const group = screen.getByRole('group', { name: 'Published after' });
    expect(group.closest('.field')?.textContent).toContain('must be a date of the form MM/DD/YYYY');
    expect(screen.getByText('The earliest day.')).toBeTruthy();
    expect(screen.getByText('*')).toBeTruthy();
  });

  it('is read only when asked: no calendar, no clear, typing changes nothing', async () => {
    const { onChange, user } = renderControl(DateControl, PUBLISHED_AFTER, '05/01/2026', { isReadOnly: true });
    expect(screen.queryByRole('button', { name: /calendar/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Clear/ })).toBeNull();
    await user.click(segments('Published after').byType('day'));
    await user.keyboard('{ArrowUp}9');
    expect(onChange).not.toHaveBeenCalled();
    expect(segments('Published after').byType('day').textContent).toBe('01');
  });

  it('hands the form a focus handle that reaches the first segment', () => {
    let handle: Focusable | null = null;
    renderControl(DateControl, PUBLISHED_AFTER, null, { focusRef: (h) => (handle = h) });
    handle!.focus();
    expect(document.activeElement).toBe(segments('Published after').all[0]);
  });
});

describe('DateTimeControl', () => {
  it('shows the server value and writes nothing on load', () => {
    const { onChange } = renderControl(DateTimeControl, STARTS, '2026-05-01 13:30:00.0');
    const s = segments('Starts');
    expect(s.byType('year').textContent).toBe('2026');
    expect(s.byType('hour').textContent).toBe('01');
    expect(s.byType('minute').textContent).toBe('30');
    expect(s.byType('dayPeriod').textContent).toBe('PM');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('keeps the fraction the server sent when only the date changes', async () => {
    // ".250" and no fraction at all: both are what the server sent, and neither is how a new value is written.
    const { onChange, user } = renderControl(DateTimeControl, STARTS, '2026-05-01 13:30:00.250');
    await user.click(segments('Starts').byType('day'));
    await user.keyboard('{ArrowUp}');
    expect(onChange).toHaveBeenLastCalledWith('2026-05-02 13:30:00.250');
    expect(checkFieldValue(STARTS, onChange.mock.lastCall![0])).toBeNull();
  });

  it('writes YYYY-MM-DD hh:mm:ss.s that the server accepts when the user types a new date and time', async () => {
    const { onChange, user } = renderControl(DateTimeControl, STARTS, null);
    await user.click(segments('Starts').byType('month'));
    await user.keyboard('050120260130P');
    expect(onChange).toHaveBeenLastCalledWith('2026-05-01 13:30:00.0');
    expect(checkFieldValue(STARTS, onChange.mock.lastCall![0])).toBeNull();
  });

  it('shows seconds when the stored value has some, and keeps them', async () => {
    const { onChange, user } = renderControl(DateTimeControl, STARTS, '2026-05-01 13:30:07');
    expect(segments('Starts').byType('second').textContent).toBe('07');
    await user.click(segments('Starts').byType('minute'));
    await user.keyboard('{ArrowUp}');
    expect(onChange).toHaveBeenLastCalledWith('2026-05-01 13:31:07');
  });

  it('picking a day in the calendar keeps the time', async () => {
    const { onChange, user } = renderControl(DateTimeControl, STARTS, '2026-05-01 09:15:00');
    await user.click(screen.getByRole('button', { name: /Choose from a calendar/ }));
    await screen.findByRole('grid');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('2026-05-08 09:15:00');
  });

  it('keeps a value it cannot read and offers to clear it', async () => {
    const { onChange, user } = renderControl(DateTimeControl, STARTS, '2026-05-01T13:30:00Z');
    expect(screen.getByText('2026-05-01T13:30:00Z')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Clear saved value' }));
    expect(onChange).toHaveBeenCalledWith(null);
  });

  it('shows the date in the order of the user’s locale and still writes the server’s format', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(
      <I18nProvider locale="de-DE">
        <DateTimeControl def={STARTS} value="2026-05-01 13:30:00.0" onChange={onChange} />
      </I18nProvider>,
    );
    const s = segments('Starts');
    expect(s.all.map((seg) => seg.getAttribute('data-type'))).toEqual(['day', 'month', 'year', 'hour', 'minute']);
    expect(s.text()).toBe('01 05 2026 13 30');
    await user.click(s.byType('month'));
    await user.keyboard('{ArrowUp}');
    expect(onChange).toHaveBeenLastCalledWith('2026-06-01 13:30:00.0');
  });
});
