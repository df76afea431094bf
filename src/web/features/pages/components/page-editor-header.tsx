import type { ReactNode } from 'react';
import type { Page } from '../../../../shared/api/pages';
import type { TransitionName } from '../../../../shared/api/workflow';
import { Button } from '../../../components/ui/button';
import { LiveDiffers } from '../../../kit/history/history-panel';
import { SAVE_SHORTCUT } from '../../../kit/saving/save-runner';
import { ScheduleControl } from '../../../kit/workflow/schedule-control';
import { TransitionButtons } from '../../../kit/workflow/transition-buttons';
import { WorkflowStatus } from '../../../kit/workflow/workflow-status';
import type { VersionRef } from '../../../lib/query-keys';
import { DiscardChangesButton } from './discard-changes';
import { usePageLive } from './page-history';
import type { PageEditorState } from './use-page-editor';
import { UNDO_KEYS, type PageHistory as UndoHistory } from './use-page-history';
import type { usePageWorkflow } from './use-page-workflow';

type PageWorkflow = ReturnType<typeof usePageWorkflow>;

/**
 * The page editor's header: title and path, the workflow state, the "Live version differs" badge, the save state,
 * Schedule…, Undo, Discard, Save and the workflow's transitions.
 */
export function PageEditorHeader({
  path,
  page,
  title,
  user,
  itemLabel,
  breadcrumbs,
  isReadOnly,
  canSchedule,
  editor,
  history,
  transitions,
  pendingTransition,
  onTransition,
  onCompareLive,
}: {
  path: string;
  page: Page;
  title: string;
  user: string;
  itemLabel: string;
  breadcrumbs?: ReactNode;
  isReadOnly: boolean;
  canSchedule: boolean;
  editor: PageEditorState;
  history: UndoHistory;
  transitions: PageWorkflow['transitions'];
  pendingTransition: TransitionName | null;
  onTransition: PageWorkflow['onTransition'];
  /** "Compare" on the live badge: the History tab comparing the live version with this one. */
  onCompareLive: (latest: VersionRef) => void;
}) {
  const live = usePageLive(path);
  return (
    <header className="page-editor__header">
      {breadcrumbs && <div className="page-editor__crumbs">{breadcrumbs}</div>}
      <div className="page-editor__heading">
        <h1 tabIndex={-1} data-screen-heading="" className="page-editor__title">
          {title}
        </h1>
        <p className="page-editor__meta">
          Page <code>{path}</code> · template <code>{page.templateName}</code>
        </p>
        <div className="page-editor__status">
          <WorkflowStatus workflow={page.workflow} currentUser={user} />
          {live.differs && live.latest !== null && <LiveDiffers onCompare={() => onCompareLive(live.latest!)} />}
          <span className="page-editor__save-state" role="status">
            {editor.saving
              ? 'Saving…'
              : editor.dirty
                ? `${editor.changeCount} unsaved ${editor.changeCount === 1 ? 'change' : 'changes'} · kept in this browser`
                : 'All changes saved'}
          </span>
        </div>
        <ScheduleControl
          workflow={page.workflow}
          canSchedule={canSchedule && !isReadOnly}
          isDisabled={editor.saving || Boolean(pendingTransition)}
          itemLabel={itemLabel}
          note={
            editor.dirty
              ? `Your ${editor.changeCount === 1 ? 'unsaved change is' : `${editor.changeCount} unsaved changes are`} saved with it.`
              : undefined
          }
          onSave={async (schedule) => {
            let refused: unknown = null;
            const saved = await editor.save({ workflow: schedule }, 'Schedule saved', (e) => (refused = e));
            if (refused) throw refused;
            return saved;
          }}
        />
      </div>
      <div className="page-editor__actions">
        {!isReadOnly && (
          <>
            <Button
              variant="quiet"
              size="sm"
              onPress={history.undo}
              isDisabled={!history.lastStep}
              aria-keyshortcuts={UNDO_KEYS}
              aria-label={history.lastStep ? `Undo: ${history.lastStep.label}` : 'Undo'}
            >
              <span title={history.lastStep ? `Undo: ${history.lastStep.label}` : 'Nothing to undo'}>Undo</span>
            </Button>
            <DiscardChangesButton
              changeCount={editor.changeCount}
              itemLabel={itemLabel}
              isDisabled={!editor.dirty || editor.saving}
              onDiscard={editor.discardChanges}
            />
            <Button
              variant="primary"
              onPress={() => void editor.save()}
              isPending={editor.saving && !pendingTransition}
              isDisabled={!editor.dirty || Boolean(pendingTransition)}
              aria-keyshortcuts={SAVE_SHORTCUT === '⌘S' ? 'Meta+S' : 'Control+S'}
            >
              Save <kbd className="page-editor__kbd">{SAVE_SHORTCUT}</kbd>
            </Button>
          </>
        )}
        {transitions.data && transitions.data.transitions.length > 0 && (
          <div className="page-editor__workflow">
            <span className="page-editor__workflow-label" aria-hidden="true">
              Workflow
            </span>
            <TransitionButtons
              transitions={transitions.data.transitions}
              onTransition={(name, comment) => void onTransition(name, comment)}
              pending={pendingTransition}
              isDisabled={editor.saving}
              label="Workflow"
              emphasiseFirst={false}
            />
          </div>
        )}
      </div>
    </header>
  );
}
