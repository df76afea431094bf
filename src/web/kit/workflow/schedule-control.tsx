import type { CalendarDateTime } from '@internationalized/date';
import { useState } from 'react';
import { isApiError } from '../../../shared/api/client';
import type { WorkflowInfo } from '../../../shared/api/workflow';
import { Button } from '../../components/ui/button';
import { DateTimePicker } from '../../components/ui/date-picker';
import { FormDialog } from '../../components/ui/dialog';
import { CalendarIcon } from '../../components/ui/icons';
import {
  localTimeZone,
  scheduleChange,
  scheduleLine,
  timeZoneLabel,
  toInstant,
  toLocalDateTime,
  type ScheduleChange,
} from './schedule';
import './workflow.css';

type Schedule = Pick<WorkflowInfo, 'publishAt' | 'unpublishAt'>;

/**
 * "Scheduled: publishes <time>, unpublishes <time>" of a listed item (explorer table, library table); null if none.
 * `compact` (a card, a narrow column): "Scheduled" shown, the times in its tooltip and for screen readers.
 */
export function ScheduleMark({ schedule, compact = false }: { schedule: Schedule; compact?: boolean }) {
  const line = scheduleLine(schedule);
  if (!line) return null;
  return (
    <span className={compact ? 'schedule-mark schedule-mark--compact' : 'schedule-mark'} title={line}>
      <CalendarIcon aria-hidden="true" />
      {compact ? (
        <>
          <span aria-hidden="true">Scheduled</span>
          <span className="visually-hidden">{line}</span>
        </>
      ) : (
        line
      )}
    </span>
  );
}

/** The errors of the server that are about one of the times, by field (`workflow.publishAt`, `…unpublishAt`). */
function timeErrors(error: unknown): { publishAt?: string; unpublishAt?: string } {
  if (!isApiError(error, 400)) return {};
  const found: { publishAt?: string; unpublishAt?: string } = {};
  for (const e of error.errors) {
    const key = /(?:^|\.)(publishAt|unpublishAt)$/.exec(e.path)?.[1] as 'publishAt' | 'unpublishAt' | undefined;
    if (key) found[key] ??= e.message.charAt(0).toUpperCase() + e.message.slice(1);
  }
  return found;
}

/** What a picked time's field says under it: the time zone, and when the time has passed what that means. */
function TimeDescription({ value, passed }: { value: CalendarDateTime | null; passed: string }) {
  const isPast = value !== null && Date.parse(toInstant(value)) <= Date.now();
  return (
    <>
      Your time zone: {timeZoneLabel(value)}
      {isPast && <span className="schedule-dialog__past">{passed}</span>}
    </>
  );
}

function ScheduleDialog({
  schedule,
  itemLabel,
  note,
  onSave,
  onClose,
}: {
  schedule: Schedule;
  itemLabel: string;
  note?: string;
  onSave: (change: ScheduleChange) => Promise<boolean>;
  onClose: () => void;
}) {
  const [publishAt, setPublishAt] = useState(() => toLocalDateTime(schedule.publishAt));
  const [unpublishAt, setUnpublishAt] = useState(() => toLocalDateTime(schedule.unpublishAt));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [shownErrors, setShownErrors] = useState<{ publishAt?: string; unpublishAt?: string }>({});
  const zone = localTimeZone();
  const outOfOrder = publishAt !== null && unpublishAt !== null && unpublishAt.compare(publishAt) <= 0;

  const submit = async () => {
    if (outOfOrder) return;
    const change = scheduleChange(schedule, { publishAt, unpublishAt }, zone);
    if (Object.keys(change).length === 0) return onClose();
    setPending(true);
    setError(null);
    setShownErrors({});
    try {
      await onSave(change);
      onClose();
    } catch (e) {
      const byField = timeErrors(e);
      setShownErrors(byField);
      // An error about no single time (no right, a lock, no connection) is said above the buttons.
      if (!byField.publishAt && !byField.unpublishAt) setError(e);
    } finally {
      setPending(false);
    }
  };

  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title="Schedule"
      description={
        <>
          The scheduler publishes {itemLabel} at the publish time and archives it at the unpublish time. Leave a time
          empty for none.{note ? ` ${note}` : ''}
        </>
      }
      submitLabel="Save schedule"
      onSubmit={() => void submit()}
      isPending={pending}
      error={error}
    >
      <DateTimePicker<CalendarDateTime>
        label="Publish at"
        autoFocus
        value={publishAt}
        onChange={(value) => {
          setPublishAt(value);
          setShownErrors((s) => ({ ...s, publishAt: undefined }));
        }}
        description={<TimeDescription value={publishAt} passed=" This time has passed: it is published at once." />}
        errorMessage={shownErrors.publishAt}
      />
      <DateTimePicker<CalendarDateTime>
        label="Unpublish at"
        value={unpublishAt}
        onChange={(value) => {
          setUnpublishAt(value);
          setShownErrors((s) => ({ ...s, unpublishAt: undefined }));
        }}
        description={
          <TimeDescription value={unpublishAt} passed=" This time has passed: it is archived at once if live." />
        }
        errorMessage={outOfOrder ? 'Must be after the publish time.' : shownErrors.unpublishAt}
      />
    </FormDialog>
  );
}

/**
 * An item's schedule in its workflow controls: the times set, in the reader's time zone, and (for an Editor)
 * "Schedule…", a dialog with a date-time field for publishing and one for unpublishing (each with its time zone
 * named and a button clearing it). `onSave` sends the change through the item's own save (one PUT); it resolves
 * when that is done (true saved, false shown elsewhere, e.g. a conflict) and throws what the dialog should show.
 */
export function ScheduleControl({
  workflow,
  canSchedule,
  isDisabled,
  itemLabel,
  note,
  onSave,
}: {
  workflow: Schedule;
  canSchedule: boolean;
  isDisabled?: boolean;
  /** The item in words for the dialog ("the page “Home”"). */
  itemLabel: string;
  /** A sentence more for the dialog (e.g. that unsaved edits go with it). */
  note?: string;
  onSave: (change: ScheduleChange) => Promise<boolean>;
}) {
  const [open, setOpen] = useState(false);
  const line = scheduleLine(workflow);
  if (!line && !canSchedule) return null;
  return (
    <div className="schedule-control">
      {line ? (
        <p className="schedule-control__line">
          <CalendarIcon aria-hidden="true" />
          {line}
        </p>
      ) : null}
      {canSchedule && (
        <Button size="sm" variant="secondary" onPress={() => setOpen(true)} isDisabled={isDisabled}>
          {line ? 'Change schedule…' : 'Schedule…'}
        </Button>
      )}
      {open && (
        <ScheduleDialog
          schedule={workflow}
          itemLabel={itemLabel}
          note={note}
          onSave={onSave}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}
