import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { WithEtag } from '../../../../shared/api/client';
import type { Page, RegionInput } from '../../../../shared/api/pages';
import { splitPath } from '../../../../shared/api/paths';
import type { TransitionName } from '../../../../shared/api/workflow';
import { widgetTypeDef, type AssetType, type WidgetType } from '../../../../shared/registry';
import { Button } from '../../../components/ui/button';
import { HtmlPreview } from '../../../components/ui/html-preview';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { SegmentedControl, type SegmentOption } from '../../../components/ui/segmented-control';
import { Tabs } from '../../../components/ui/tabs';
import { toast } from '../../../components/ui/toast';
import { useKitServices } from '../../../kit/kit-services';
import { ConflictDialog } from '../../../kit/saving/conflict-dialog';
import { DraftRestoreDialog } from '../../../kit/saving/draft-restore-dialog';
import { SAVE_SHORTCUT, useSaveRunner, useSaveShortcut } from '../../../kit/saving/save-runner';
import { UnsavedChangesGuard } from '../../../kit/saving/unsaved-changes-guard';
import { TransitionButtons } from '../../../kit/workflow/transition-buttons';
import { TRANSITION_DONE } from '../../../kit/workflow/transitions';
import { WorkflowStatus } from '../../../kit/workflow/workflow-status';
import { useApi } from '../../../lib/api';
import { errorMessage, errorTitle } from '../../../lib/errors';
import { assetQueryOptions } from '../../../lib/queries/assets';
import { usePageTransitions } from '../../../lib/queries/pages';
import { pagesKeys } from '../../../lib/query-keys';
import {
  countChanges,
  isBinaryWidget,
  newWidgetKey,
  sharedPath,
  widgetLabel,
  type EditorWidget,
} from '../lib/editor-doc';
import { pageConflictRows } from '../lib/page-conflict';
import { fieldsOfDuplicate } from '../lib/widget-copy';
import { PAGE_PREVIEW_CSS, pagePreviewHtml } from '../lib/page-preview';
import { ApproveAssetsDialog, type PendingAsset } from './approve-assets-dialog';
import { PageOutline } from './page-outline';
import { PropertiesPanel } from './properties-panel';
import { RegionsView } from './regions-view';
import { ShareDialog } from './share-dialog';
import { usePageEditor } from './use-page-editor';
import { WidgetPalette } from './widget-palette';
import type { WidgetActions } from './widget-card';
import './page-editor.css';

type View = 'edit' | 'split' | 'preview';

/** Forms only, forms beside the preview, or the preview alone. */
const VIEW_OPTIONS: readonly SegmentOption<View>[] = [
  { id: 'edit', label: 'Edit' },
  { id: 'split', label: 'Edit and preview' },
  { id: 'preview', label: 'Preview' },
];

/** Where focus goes in a widget, best first: a text to type in, then any field, then a button or link. */
const FIELD_SELECTORS = [
  '[contenteditable="true"], input:not([type=hidden]), textarea',
  '[role="spinbutton"], [role="combobox"], button:not([disabled]), a[href]',
].map((s) =>
  s
    .split(', ')
    .map((part) => `.widget-card__body ${part}`)
    .join(', '),
);

/**
 * Scrolls the app's main area (not the whole document) so `el` sits just below the editor's sticky header.
 * `scrollIntoView` would scroll every ancestor, the document too, pushing the app's header out of sight.
 */
function scrollMainTo(el: HTMLElement) {
  const main = el.closest('main');
  if (!main) return;
  const header = main.querySelector<HTMLElement>('.page-editor__header');
  const offset = (header?.getBoundingClientRect().height ?? 0) + 16;
  const top = el.getBoundingClientRect().top - main.getBoundingClientRect().top + main.scrollTop - offset;
  main.scrollTo({ top: Math.max(0, top), behavior: 'smooth' });
}

/**
 * Moves focus into a widget's first field. Heavy controls (rich text, code) load after the card appears, and a
 * dialog that just closed (the palette, a picker) puts focus back on its trigger: so this waits a moment for the
 * field and for the dialog to let go, then takes the focus.
 */
function focusIntoWidget(card: HTMLElement) {
  card.focus({ preventScroll: true });
  let tries = 0;
  const attempt = () => {
    tries += 1;
    const field = FIELD_SELECTORS.map((sel) => card.querySelector<HTMLElement>(sel)).find(Boolean) ?? null;
    const dialogOpen = document.querySelector('.modal-overlay') !== null;
    if (field && !dialogOpen) {
      field.focus({ preventScroll: true });
      if (document.activeElement === field || field.contains(document.activeElement)) return;
    }
    if (tries < 60) window.setTimeout(attempt, 50);
  };
  window.setTimeout(attempt, 0);
}

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
  isReadOnly,
  links,
  breadcrumbs,
}: {
  path: string;
  initial: WithEtag<Page>;
  user: string;
  isReadOnly: boolean;
  links: PageEditorLinks;
  breadcrumbs?: ReactNode;
}) {
  const editor = usePageEditor({ path, user, initial });
  const { base, doc, setDoc } = editor;
  const page = base.data;
  const client = useApi();
  const queryClient = useQueryClient();
  const runSave = useSaveRunner();
  const services = useKitServices();
  const transitions = usePageTransitions(path);
  const [tab, setTab] = useState<'content' | 'properties'>('content');
  const [view, setView] = useState<View>('edit');
  const [palette, setPalette] = useState<string | null>(null);
  const [sharing, setSharing] = useState<string | null>(null);
  const [approving, setApproving] = useState<{ to: string; assets: PendingAsset[] } | null>(null);
  const [pendingTransition, setPendingTransition] = useState<TransitionName | null>(null);
  const [switching, setSwitching] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const focusNext = useRef<{ key: string; target: 'card' | 'move-up' | 'move-down' } | null>(null);
  const dragged = useRef<string | null>(null);
  const title = page.displayName || page.name;
  const itemLabel = `the page “${title}”`;

  // Like the Save button: with nothing changed there is nothing to send (the browser's "Save page as" stays off).
  useSaveShortcut(() => {
    if (!isReadOnly && !editor.conflict && editor.dirty) void editor.save();
  });

  // Focus follows a widget that moved, or a widget just added or chosen in the outline.
  useLayoutEffect(() => {
    const next = focusNext.current;
    if (!next) return;
    const card = document.querySelector<HTMLElement>(`[data-widget-key="${CSS.escape(next.key)}"]`);
    if (!card) return;
    focusNext.current = null;
    if (next.target === 'card') {
      scrollMainTo(card);
      focusIntoWidget(card);
      return;
    }
    const button = card.querySelector<HTMLButtonElement>(`[data-action="${next.target}"]`);
    const other = card.querySelector<HTMLButtonElement>(
      `[data-action="${next.target === 'move-up' ? 'move-down' : 'move-up'}"]`,
    );
    (button && !button.disabled ? button : (other ?? card)).focus();
  });

  const locate = useCallback(
    (key: string) => {
      for (const [region, widgets] of Object.entries(doc.regions)) {
        const index = widgets.findIndex((w) => w.key === key);
        if (index >= 0) return { region, index, widget: widgets[index]! };
      }
      return null;
    },
    [doc],
  );

  const updateWidget = useCallback(
    (key: string, change: (w: EditorWidget) => EditorWidget) =>
      setDoc((d) => {
        const regions: Record<string, EditorWidget[]> = {};
        for (const [name, widgets] of Object.entries(d.regions))
          regions[name] = widgets.map((w) => (w.key === key ? change(w) : w));
        return { ...d, regions };
      }),
    [setDoc],
  );

  const placeWidget = useCallback(
    (key: string, region: string, index: number) =>
      setDoc((d) => {
        let moving: EditorWidget | undefined;
        const regions: Record<string, EditorWidget[]> = {};
        for (const [name, widgets] of Object.entries(d.regions)) {
          moving ??= widgets.find((w) => w.key === key);
          regions[name] = widgets.filter((w) => w.key !== key);
        }
        if (!moving || !regions[region]) return d;
        const list = [...regions[region]];
        list.splice(Math.max(0, Math.min(index, list.length)), 0, moving);
        regions[region] = list;
        return { ...d, regions };
      }),
    [setDoc],
  );

  const pickFor = useCallback(
    async (widget: EditorWidget, title: string) => {
      const assetType = widgetTypeDef(widget.type)?.assetType;
      if (!assetType) return;
      const asset = await services.pickAsset({ title, types: [assetType as AssetType] });
      if (!asset) return;
      updateWidget(widget.key, (w) => ({
        ...w,
        shared: { name: asset.name, folderPath: asset.folderPath },
        share: 'link',
        fields: { ...(asset.fields as Record<string, string | null>) },
      }));
      setAnnouncement(`Linked the shared asset ${asset.name}.`);
    },
    [services, updateWidget],
  );

  const actions: WidgetActions = {
    changeFields: (key, fields) => updateWidget(key, (w) => ({ ...w, fields })),
    move: (key, delta) => {
      const at = locate(key);
      if (!at) return;
      const to = at.index + delta;
      const count = doc.regions[at.region]!.length;
      if (to < 0 || to >= count) return;
      focusNext.current = { key, target: delta < 0 ? 'move-up' : 'move-down' };
      placeWidget(key, at.region, to);
      setAnnouncement(
        `Moved the ${widgetLabel(at.widget.type)} widget to position ${to + 1} of ${count} in ${at.region}.`,
      );
    },
    moveTo: (key, region) => {
      const at = locate(key);
      if (!at) return;
      focusNext.current = { key, target: 'card' };
      placeWidget(key, region, Number.MAX_SAFE_INTEGER);
      setAnnouncement(`Moved the ${widgetLabel(at.widget.type)} widget to the end of ${region}.`);
    },
    duplicate: (key) => {
      const at = locate(key);
      if (!at) return;
      const w = at.widget;
      const copy: EditorWidget = {
        key: newWidgetKey(),
        type: w.type,
        fields: fieldsOfDuplicate(w, doc),
        shared: w.share === 'create' ? undefined : w.shared,
        share: w.shared && w.share !== 'create' ? 'link' : undefined,
      };
      setDoc((d) => {
        const list = [...(d.regions[at.region] ?? [])];
        list.splice(at.index + 1, 0, copy);
        return { ...d, regions: { ...d.regions, [at.region]: list } };
      });
      focusNext.current = { key: copy.key, target: 'card' };
      setAnnouncement(`Duplicated the ${widgetLabel(w.type)} widget.`);
    },
    remove: (key) => {
      const at = locate(key);
      if (!at) return;
      setDoc((d) => ({
        ...d,
        regions: { ...d.regions, [at.region]: d.regions[at.region]!.filter((w) => w.key !== key) },
      }));
      toast.success(`Removed the ${widgetLabel(at.widget.type)} widget`, `From ${at.region}. Save to make it final.`, {
        label: 'Undo',
        onAction: () => {
          setDoc((d) => {
            const list = [...(d.regions[at.region] ?? [])];
            if (list.some((w) => w.key === key)) return d;
            list.splice(Math.min(at.index, list.length), 0, at.widget);
            return { ...d, regions: { ...d.regions, [at.region]: list } };
          });
          focusNext.current = { key, target: 'card' };
        },
      });
    },
    makeShared: (key) => setSharing(key),
    linkShared: (key) => {
      const at = locate(key);
      if (at) void pickFor(at.widget, `Link a shared ${widgetLabel(at.widget.type).toLowerCase()}`);
    },
    detach: (key) => {
      const at = locate(key);
      if (!at) return;
      const copy: EditorWidget = { key: newWidgetKey(), type: at.widget.type, fields: { ...at.widget.fields } };
      setDoc((d) => ({
        ...d,
        regions: { ...d.regions, [at.region]: d.regions[at.region]!.map((w) => (w.key === key ? copy : w)) },
      }));
      focusNext.current = { key: copy.key, target: 'card' };
      setAnnouncement('Detached: the widget now holds a local copy you can edit here.');
    },
    chooseBinary: (key) => {
      const at = locate(key);
      if (at) void pickFor(at.widget, at.widget.type === 'cmsImage' ? 'Choose an image' : 'Choose a file');
    },
    dragStart: (key) => {
      dragged.current = key;
    },
    dropBefore: (targetKey) => {
      const key = dragged.current;
      dragged.current = null;
      const target = locate(targetKey);
      const at = key ? locate(key) : null;
      if (!key || !target || !at || key === targetKey) return;
      const index = at.region === target.region && at.index < target.index ? target.index - 1 : target.index;
      placeWidget(key, target.region, index);
      setAnnouncement(`Moved the ${widgetLabel(at.widget.type)} widget to ${target.region}.`);
    },
  };

  const dropAtEnd = (region: string) => {
    const key = dragged.current;
    dragged.current = null;
    if (key) placeWidget(key, region, Number.MAX_SAFE_INTEGER);
  };

  const addWidget = (region: string, type: WidgetType) => {
    setPalette(null);
    const widget: EditorWidget = { key: newWidgetKey(), type, fields: {} };
    setDoc((d) => ({ ...d, regions: { ...d.regions, [region]: [...(d.regions[region] ?? []), widget] } }));
    focusNext.current = { key: widget.key, target: 'card' };
    setAnnouncement(`Added a ${widgetLabel(type)} widget at the end of ${region}.`);
    if (isBinaryWidget(type)) void pickFor(widget, type === 'cmsImage' ? 'Choose an image' : 'Choose a file');
  };

  const goToWidget = (key: string) => {
    setTab('content');
    if (view === 'preview') setView('edit');
    focusNext.current = { key, target: 'card' };
    setAnnouncement('');
    // Re-render so the layout effect runs even when nothing else changed.
    setDoc((d) => ({ ...d }));
  };
  const goToRegion = (region: string) => {
    setTab('content');
    if (view === 'preview') setView('edit');
    requestAnimationFrame(() => {
      const heading = document.querySelector<HTMLElement>(`[data-region-heading="${CSS.escape(region)}"]`);
      if (!heading) return;
      scrollMainTo(heading);
      heading.focus({ preventScroll: true });
    });
  };

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

  const runTransition = async (name: TransitionName, to: string, assets: PendingAsset[] = []) => {
    setPendingTransition(name);
    try {
      for (const a of assets) {
        const segments = splitPath(a.path);
        await runSave(() =>
          client.assets.put(segments, { workflow: { state: 'Public' } }, { ifMatch: a.etag ?? undefined }),
        );
      }
      const ok = await editor.save(
        { workflow: { state: to as 'Public' } },
        assets.length
          ? `${TRANSITION_DONE[name]} with ${assets.length} shared ${assets.length === 1 ? 'asset' : 'assets'}`
          : TRANSITION_DONE[name],
      );
      if (ok) setApproving(null);
    } catch (error) {
      toast.error(errorTitle(error), errorMessage(error));
    } finally {
      setPendingTransition(null);
    }
  };

  const onTransition = async (name: TransitionName) => {
    const t = transitions.data?.transitions.find((x) => x.name === name);
    if (!t) return;
    if (name !== 'Approve') return void runTransition(name, t.to);
    // Approving a page whose shared assets are still drafts offers to approve them too.
    const paths = new Set<string>();
    for (const widgets of Object.values(doc.regions))
      for (const w of widgets) if (w.shared) paths.add(sharedPath(w.shared));
    setPendingTransition(name);
    try {
      const found = await Promise.all(
        [...paths].map((p) =>
          queryClient.fetchQuery({ ...assetQueryOptions(client, p), staleTime: 0 }).catch(() => null),
        ),
      );
      const drafts = found
        .filter((a): a is NonNullable<typeof a> => a !== null && a.data.workflow.state !== 'Public')
        .map((a) => ({ path: `${a.data.folderPath}/${a.data.name}`, state: a.data.workflow.state, etag: a.etag }));
      setPendingTransition(null);
      if (drafts.length) setApproving({ to: t.to, assets: drafts });
      else void runTransition(name, t.to);
    } catch {
      setPendingTransition(null);
      void runTransition(name, t.to);
    }
  };

  const conflictRows = editor.conflict?.theirs ? pageConflictRows(page, editor.conflict.theirs.data, doc) : [];
  const regionNames = page.body.filter((r) => r.editable).map((r) => r.name);
  const preview = (
    <section className="page-editor__preview" aria-label="Preview">
      <HtmlPreview
        html={pagePreviewHtml(page, doc)}
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
      onChange={(props) => setDoc((d) => ({ ...d, props }))}
      isReadOnly={isReadOnly}
      isDirty={editor.dirty}
      onSwitchTemplate={switchTemplate}
      isSwitching={switching}
    />
  );

  return (
    <div className="page-editor">
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
            <span className="page-editor__save-state" role="status">
              {editor.saving
                ? 'Saving…'
                : editor.dirty
                  ? `${editor.changeCount} unsaved ${editor.changeCount === 1 ? 'change' : 'changes'} · kept in this browser`
                  : 'All changes saved'}
            </span>
          </div>
        </div>
        <div className="page-editor__actions">
          {!isReadOnly && (
            <>
              <Button
                variant="quiet"
                size="sm"
                onPress={editor.discardChanges}
                isDisabled={!editor.dirty || editor.saving}
              >
                Discard changes
              </Button>
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
                onTransition={(name) => void onTransition(name)}
                pending={pendingTransition}
                isDisabled={editor.saving}
                label="Workflow"
                emphasiseFirst={false}
              />
            </div>
          )}
        </div>
      </header>

      {page.workflow.checkedOut && page.workflow.checkedOutUser && page.workflow.checkedOutUser !== user && (
        <InlineAlert tone="info" title={`${page.workflow.checkedOutUser} has this page checked out`}>
          They may be editing it now. You can still save; if they save in between, you will see what they changed and
          choose whose version to keep.
        </InlineAlert>
      )}
      {editor.saveError !== null && (
        <InlineAlert title={`Not saved: ${errorTitle(editor.saveError)}`}>
          {errorMessage(editor.saveError)}
          {(editor.saveError as { errors?: { path: string; message: string }[] }).errors?.length ? (
            <ul>
              {(editor.saveError as { errors: { path: string; message: string }[] }).errors.map((e) => (
                <li key={e.path}>
                  <code>{e.path}</code> {e.message}
                </li>
              ))}
            </ul>
          ) : null}
        </InlineAlert>
      )}

      <div className="page-editor__bar">
        <SegmentedControl<View> label="Show" options={VIEW_OPTIONS} value={view} onChange={setView} />
      </div>

      <div className={`page-editor__layout page-editor__layout--${view}`}>
        {view !== 'preview' && (
          <PageOutline page={page} doc={doc} onGoToWidget={goToWidget} onGoToRegion={goToRegion} />
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
                { id: 'properties', label: 'Properties', content: properties },
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
          onChoose={(type) => addWidget(palette, type)}
          onClose={() => setPalette(null)}
        />
      )}
      {sharing !== null && locate(sharing) && (
        <ShareDialog
          widget={locate(sharing)!.widget}
          onCancel={() => setSharing(null)}
          onShare={(ref) => {
            updateWidget(sharing, (w) => ({ ...w, shared: ref, share: 'create' }));
            setSharing(null);
            setAnnouncement(`The widget becomes the shared asset ${ref.name} when you save.`);
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
