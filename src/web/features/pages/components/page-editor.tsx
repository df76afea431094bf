import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import type { WithEtag } from '../../../../shared/api/client';
import type { Page, RegionInput } from '../../../../shared/api/pages';
import { splitPath } from '../../../../shared/api/paths';
import { HtmlPreview } from '../../../components/ui/html-preview';
import { SegmentedControl, type SegmentOption } from '../../../components/ui/segmented-control';
import { Tabs } from '../../../components/ui/tabs';
import { toast } from '../../../components/ui/toast';
import type { ComparePair } from '../../../kit/history/use-revisions';
import { ConflictDialog } from '../../../kit/saving/conflict-dialog';
import { DraftRestoreDialog } from '../../../kit/saving/draft-restore-dialog';
import { useSaveShortcut } from '../../../kit/saving/save-runner';
import { UnsavedChangesGuard } from '../../../kit/saving/unsaved-changes-guard';
import { PresenceBar } from '../../../kit/presence/presence-bar';
import { useItemLease } from '../../../kit/presence/use-item-lease';
import { useLastSaved } from '../../../kit/presence/use-last-saved';
import { RejectionNotice } from '../../../kit/workflow/rejection-notice';
import { errorMessage, errorTitle } from '../../../lib/errors';
import { useSkipLink } from '../../../lib/skip-links';
import { pagesKeys, type VersionRef } from '../../../lib/query-keys';
import { countChanges, locateWidget, type PageProps } from '../lib/editor-doc';
import { pageConflictRows } from '../lib/page-conflict';
import type { SaveProblem } from '../lib/save-problems';
import { PAGE_PREVIEW_CSS, pagePreviewHtml } from '../lib/page-preview';
import { ApproveAssetsDialog } from './approve-assets-dialog';
import { SavedElsewhereBanner, useSavedElsewhere } from './saved-elsewhere';
import { PageEditorHeader } from './page-editor-header';
import { PageHistory } from './page-history';
import { PageOutline } from './page-outline';
import { PropertiesPanel } from './properties-panel';
import { RegionsView } from './regions-view';
import { SaveProblemsAlert } from './save-problems-alert';
import { ShareDialog } from './share-dialog';
import { usePageEditor } from './use-page-editor';
import { usePageHistory } from './use-page-history';
import { usePageWorkflow } from './use-page-workflow';
import { useWidgetActions } from './use-widget-actions';
import { useWidgetFocus } from './use-widget-focus';
import { WidgetPalette } from './widget-palette';
import './page-editor.css';

type View = 'edit' | 'split' | 'preview';

/** Forms only, forms beside the preview, or the preview alone. */
const VIEW_OPTIONS: readonly SegmentOption<View>[] = [
  { id: 'edit', label: 'Edit' },
  { id: 'split', label: 'Edit and preview' },
  { id: 'preview', label: 'Preview' },
];

/** Where things of other features live (given by the app's route). */
export interface PageEditorLinks {
  /** The app URL of a shared asset in the asset library. */
  assetHref: (assetPath: string) => string;
}

/**
 * The page editor: the template's regions with their widgets (forms from the kit), an outline, the properties,
 * a preview, the workflow, and safe saving (only changes, If-Match, conflict dialog, drafts, guard, re-sign-in).
 */
export function PageEditor({
  path,
  initial,
  user,
  isReadOnly: mayNotWrite,
  canSchedule = false,
  links,
  breadcrumbs,
}: {
  path: string;
  initial: WithEtag<Page>;
  user: string;
  isReadOnly: boolean;
  /** The user may set when the page is published and unpublished (an Editor). */
  canSchedule?: boolean;
  links: PageEditorLinks;
  breadcrumbs?: ReactNode;
}) {
  const focus = useWidgetFocus();
  const goToProblem = (problem: SaveProblem) => {
    if (problem.key === null) return;
    setTab('content');
    setView((v) => (v === 'preview' ? 'edit' : v));
    const { key, fieldKey } = problem;
    focus.focusLater(fieldKey ? { key, target: 'invalid', field: fieldKey } : { key, target: 'card' });
  };
  const editor = usePageEditor({ path, user, initial, focusProblem: goToProblem });
  // Presence while open; the first change takes the check-out lease; someone else's makes it read-only (kit/presence).
  const lease = useItemLease('page', splitPath(path), !mayNotWrite && editor.dirty);
  const isReadOnly = mayNotWrite || lease.heldBy !== null;
  const savedBy = useLastSaved('page', splitPath(path), editor.conflict !== null);
  const { base, doc, setDoc } = editor;
  const page = base.data;
  const elsewhere = useSavedElsewhere(page.id, user, base.etag, editor.followWorkflow);
  const queryClient = useQueryClient();
  const { transitions, approving, setApproving, pendingTransition, runTransition, onTransition } = usePageWorkflow(
    path,
    editor,
  );
  const [tab, setTab] = useState<'content' | 'properties' | 'history'>('content');
  // The properties (forms, three code editors) are drawn when their tab is first shown, then kept (hidden).
  const [propertiesShown, setPropertiesShown] = useState(false);
  if (tab === 'properties' && !propertiesShown) setPropertiesShown(true);
  const [historyRequest, setHistoryRequest] = useState<ComparePair | null>(null);
  const [view, setView] = useState<View>('edit');
  const [palette, setPalette] = useState<string | null>(null);
  const [sharing, setSharing] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const title = page.displayName || page.name;
  const itemLabel = `the page “${title}”`;

  // Like the Save button: with nothing changed there is nothing to send (the browser's "Save page as" stays off).
  useSaveShortcut(() => {
    if (!isReadOnly && !editor.conflict && editor.hasChanges()) void editor.save();
  });

  const history = usePageHistory({
    doc,
    setDoc,
    restore: editor.restore,
    base,
    focusLater: focus.focusLater,
    announce: setAnnouncement,
  });
  const { actions, dropAtEnd, addWidget, changeProps, share } = useWidgetActions({
    doc,
    history,
    focusLater: focus.focusLater,
    announce: setAnnouncement,
    openShare: setSharing,
  });

  // Stable, so the (memoised) outline is not drawn again for a keystroke.
  const { focusLater, focusRegion } = focus;
  const goToWidget = useCallback(
    (key: string) => {
      setTab('content');
      setView((v) => (v === 'preview' ? 'edit' : v));
      setAnnouncement('');
      focusLater({ key, target: 'field' });
    },
    [focusLater],
  );
  const goToRegion = useCallback(
    (region: string) => {
      setTab('content');
      setView((v) => (v === 'preview' ? 'edit' : v));
      focusRegion(region);
    },
    [focusRegion],
  );

  const regionNames = useMemo(() => page.body.filter((r) => r.editable).map((r) => r.name), [page]);
  // After the frame's "Skip to main content": past the header, the outline and the tabs, into the first widget's
  // text (or the first region's Add button on an empty page).
  useSkipLink('page-content', 'Skip to the content editor', () => {
    const region = regionNames.find((name) => (doc.regions[name]?.length ?? 0) > 0);
    if (region) return goToWidget(doc.regions[region]![0]!.key);
    if (regionNames[0] === undefined) return;
    setTab('content');
    setView((v) => (v === 'preview' ? 'edit' : v));
    focusLater({ target: 'in-region', region: regionNames[0], index: 0 });
  });

  const switchTemplate = async (templateName: string, body?: RegionInput[]) => {
    setSwitching(true);
    try {
      const saved = await editor.put({ templateName, ...(body ? { body } : {}) }, base.etag);
      editor.replace(saved);
      queryClient.setQueryData(pagesKeys.detail(path), saved);
      const dropped = (saved.data as { droppedRegions?: string[] }).droppedRegions ?? [];
      toast.success(
        `Switched to the template “${templateName}”`,
        dropped.length ? `Dropped the content of ${dropped.join(', ')}.` : 'No content was dropped.',
      );
      return true;
    } catch (error) {
      toast.error(errorTitle(error), errorMessage(error));
      return false;
    } finally {
      setSwitching(false);
    }
  };

  // Stable, so the (memoised) properties panel is not drawn again for a keystroke in a widget.
  const latest = useRef({ changeProps, switchTemplate });
  latest.current = { changeProps, switchTemplate };
  const onPropsChange = useCallback((next: PageProps) => latest.current.changeProps(next), []);
  const onSwitchTemplate = useCallback(
    (name: string, body?: RegionInput[]) => latest.current.switchTemplate(name, body),
    [],
  );

  const clearHistoryRequest = useCallback(() => setHistoryRequest(null), []);
  const compareLive = (latest: VersionRef) => {
    setTab('history');
    setView((v) => (v === 'preview' ? 'edit' : v));
    setHistoryRequest({ before: 'live', after: latest });
  };
  const conflictRows = editor.conflict?.theirs ? pageConflictRows(page, editor.conflict.theirs.data, doc) : [];
  const preview = view !== 'edit' && (
    <section className="page-editor__preview" aria-label="Preview">
      <HtmlPreview
        html={pagePreviewHtml(page, editor.settledDoc)}
        css={PAGE_PREVIEW_CSS}
        title={`Preview of ${title}`}
        className="page-editor__frame"
      />
    </section>
  );
  const content = (
    <RegionsView
      page={page}
      doc={doc}
      version={editor.version}
      pagePath={path}
      isReadOnly={isReadOnly}
      regionNames={regionNames}
      actions={actions}
      controllers={editor.controllers}
      assetHref={links.assetHref}
      onAdd={(region) => setPalette(region)}
      onDropAtEnd={dropAtEnd}
    />
  );
  const properties = (
    <PropertiesPanel
      key={editor.version}
      page={page}
      props={doc.props}
      onChange={onPropsChange}
      isReadOnly={isReadOnly}
      isDirty={editor.dirty}
      onSwitchTemplate={onSwitchTemplate}
      isSwitching={switching}
    />
  );

  return (
    <div className="page-editor">
      <PageEditorHeader
        path={path}
        page={page}
        title={title}
        user={user}
        itemLabel={itemLabel}
        breadcrumbs={breadcrumbs}
        isReadOnly={isReadOnly}
        canSchedule={canSchedule}
        editor={editor}
        history={history}
        transitions={transitions}
        pendingTransition={pendingTransition}
        onTransition={onTransition}
        onCompareLive={compareLive}
      />
      {elsewhere.event && !editor.conflict && (
        <SavedElsewhereBanner
          event={elsewhere.event}
          onSeeChanges={() => {
            elsewhere.dismiss();
            void editor.openConflict();
          }}
          onDismiss={elsewhere.dismiss}
        />
      )}

      <RejectionNotice rejection={page.workflow.rejection} />
      <PresenceBar lease={lease} what="page" />
      <SaveProblemsAlert error={editor.saveError} problems={editor.problems} onGoTo={goToProblem} />

      <div className="page-editor__bar">
        <SegmentedControl<View> label="Show" options={VIEW_OPTIONS} value={view} onChange={setView} />
      </div>

      <div className={`page-editor__layout page-editor__layout--${view}`}>
        {view !== 'preview' && (
          <PageOutline
            page={page}
            doc={editor.settledDoc}
            problems={editor.problems}
            onGoToWidget={goToWidget}
            onGoToRegion={goToRegion}
          />
        )}
        {view !== 'preview' && (
          <div className="page-editor__main">
            <Tabs
              label="Edit"
              selected={tab}
              onSelectedChange={setTab}
              keepMounted
              tabs={[
                { id: 'content', label: 'Content', content },
                { id: 'properties', label: 'Properties', content: propertiesShown && properties },
                {
                  id: 'history',
                  label: 'History',
                  content: tab === 'history' && (
                    <PageHistory
                      path={path}
                      base={base}
                      title={title}
                      canRestore={!isReadOnly}
                      hasUnsavedChanges={editor.dirty}
                      request={historyRequest}
                      onRequestShown={clearHistoryRequest}
                      onRestored={editor.replace}
                    />
                  ),
                },
              ]}
            />
          </div>
        )}
        {view !== 'edit' && preview}
      </div>

      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>

      {palette !== null && (
        <WidgetPalette
          region={palette}
          onChoose={(type) => {
            setPalette(null);
            addWidget(palette, type);
          }}
          onChooseShared={(type, asset) => {
            setPalette(null);
            addWidget(palette, type, asset);
          }}
          onClose={() => setPalette(null)}
        />
      )}
      {sharing !== null && locateWidget(doc, sharing) && (
        <ShareDialog
          widget={locateWidget(doc, sharing)!.widget}
          onCancel={() => setSharing(null)}
          onShare={(ref) => {
            share(sharing, ref);
            setSharing(null);
          }}
        />
      )}
      {approving && (
        <ApproveAssetsDialog
          assets={approving.assets}
          isPending={pendingTransition === 'Approve'}
          onCancel={() => setApproving(null)}
          onApprove={(chosen) => void runTransition('Approve', approving.to, chosen)}
        />
      )}
      {!isReadOnly && (
        <UnsavedChangesGuard
          when={editor.dirty && !editor.draft.found}
          itemLabel={itemLabel}
          keptAsDraft
          onSave={() => editor.save()}
        />
      )}
      {editor.draft.found && !editor.draft.isLoading && (
        <DraftRestoreDialog
          draft={editor.draft.found}
          currentEtag={base.etag}
          itemLabel={itemLabel}
          changeCount={countChanges(editor.draft.found.data.base, editor.draft.found.data.doc)}
          onRestore={editor.restoreDraft}
          onDiscard={() => void editor.draft.discard()}
        />
      )}
      <ConflictDialog
        isOpen={editor.conflict !== null}
        itemLabel={itemLabel}
        rows={conflictRows}
        savedBy={savedBy}
        isLoading={editor.conflict !== null && !editor.conflict.theirs && !editor.conflict.error}
        error={editor.conflict?.error}
        busy={editor.conflict?.busy}
        onReload={editor.reloadTheirs}
        onOverwrite={() => void editor.overwrite()}
        onCancel={editor.closeConflict}
      />
    </div>
  );
}
