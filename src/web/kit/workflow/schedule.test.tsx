import { CalendarDateTime } from '@internationalized/date';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../shared/api/api-error';
import { scheduleChange, scheduleLine, timeZoneLabel, toInstant, toLocalDateTime } from './schedule';
import { ScheduleControl } from './schedule-control';

describe('schedule times', () => {
  it('shows a stored UTC time as the wall clock of a zone, and takes it back to UTC', () => {
    const local = toLocalDateTime('2031-03-01T09:00:00.000Z', 'Europe/Berlin');
    expect(local?.toString()).toBe('2031-03-01T10:00:00');
    expect(toInstant(new CalendarDateTime(2031, 7, 1, 10, 0), 'Europe/Berlin')).toBe('2031-07-01T08:00:00.000Z');
    expect(toLocalDateTime('not a time', 'Europe/Berlin')).toBeNull();
    expect(toLocalDateTime(undefined)).toBeNull();
  });

  it('names the zone with its offset on the day picked (summer and winter differ)', () => {
    expect(timeZoneLabel(new CalendarDateTime(2031, 1, 15, 12, 0), 'Europe/Berlin')).toBe('Europe/Berlin (UTC+01:00)');
    expect(timeZoneLabel(new CalendarDateTime(2031, 7, 15, 12, 0), 'Europe/Berlin')).toBe('Europe/Berlin (UTC+02:00)');
    expect(timeZoneLabel(new CalendarDateTime(2031, 7, 15, 12, 0), 'America/St_Johns')).toBe(
      'America/St_Johns (UTC-02:30)',
    );
  });

  it('sends only what changed: a time kept to the minute is not sent, a cleared one is null', () => {
    const stored = { publishAt: '2031-03-01T09:00:30.000Z', unpublishAt: '2031-04-01T09:00:00.000Z' };
    const zone = 'Europe/Berlin';
    expect(
      scheduleChange(stored, { publishAt: toLocalDateTime(stored.publishAt, zone), unpublishAt: null }, zone),
    ).toEqual({ unpublishAt: null });
    expect(scheduleChange({}, { publishAt: new CalendarDateTime(2031, 3, 1, 10, 0), unpublishAt: null }, zone)).toEqual(
      { publishAt: '2031-03-01T09:00:00.000Z' },
    );
  });

  it('says the schedule in words, or nothing', () => {
    expect(scheduleLine({})).toBeNull();
    expect(scheduleLine({ unpublishAt: '2031-04-01T09:00:00.000Z' })).toMatch(/^Scheduled: unpublishes \S/);
    expect(scheduleLine({ publishAt: '2031-03-01T09:00:00Z', unpublishAt: '2031-04-01T09:00:00Z' })).toMatch(
      /^Scheduled: publishes .+, unpublishes .+$/,
    );
  });
});

/** Renders the control of a page to publish on 1 March 2031 and unpublish at `unpublishAt`, and opens its dialog. */
async function openDialog(user: ReturnType<typeof userEvent.setup>, unpublishAt: string, onSave: () => unknown) {
  render(
    <ScheduleControl
      workflow={{ publishAt: '2031-03-01T09:00:00.000Z', unpublishAt }}
      canSchedule
      itemLabel="the page “Home”"
      onSave={onSave as () => Promise<boolean>}
    />,
  );
  await user.click(screen.getByRole('button', { name: 'Change schedule…' }));
}

describe('ScheduleControl', () => {
  it('shows the times set, and nothing more to someone who may not schedule', () => {
    const { rerender } = render(
      <ScheduleControl workflow={{}} canSchedule={false} itemLabel="the page" onSave={vi.fn()} />,
    );
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByText(/Scheduled/)).toBeNull();
    rerender(
      <ScheduleControl
        workflow={{ publishAt: '2031-03-01T09:00:00.000Z' }}
        canSchedule={false}
        itemLabel="the page"
        onSave={vi.fn()}
      />,
    );
    expect(screen.getByText(/^Scheduled: publishes/)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('clears a time, and shows the server’s refusal on the field it is about, staying open', async () => {
    const user = userEvent.setup();
    const refusal = new ApiError({
      status: 400,
      code: 'INVALID_BODY',
      title: 'Invalid request',
      detail: 'The body is not valid.',
      errors: [{ path: 'workflow.unpublishAt', message: 'must be after publishAt' }],
    });
    const onSave = vi.fn().mockRejectedValueOnce(refusal).mockResolvedValueOnce(true);
    await openDialog(user, '2031-04-01T09:00:00.000Z', onSave);
    const dialog = screen.getByRole('dialog', { name: 'Schedule' });
    expect(within(dialog).getAllByText(/^Your time zone: /)).toHaveLength(2);
    await user.click(within(dialog).getByRole('button', { name: 'Clear Publish at' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    expect(onSave).toHaveBeenLastCalledWith({ publishAt: null });
    expect(await within(dialog).findByText('Must be after publishAt')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Schedule' })).toBe(dialog);

    await user.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    expect(onSave).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('refuses an unpublish time before the publish time without sending it', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    await openDialog(user, '2031-03-01T09:00:00.000Z', onSave);
    expect(screen.getByText('Must be after the publish time.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(onSave).not.toHaveBeenCalled();
  });
});
