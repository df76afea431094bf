import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { AssetMetadata, AssetPutBody } from '../../../../shared/api/assets';
import type { Me } from '../../../../shared/api/auth';
import { isApiError, type WithEtag } from '../../../../shared/api/client';
import { splitPath } from '../../../../shared/api/paths';
import type { TransitionName, WorkflowState } from '../../../../shared/api/workflow';
import { assetTypeDef, BINARY_ASSET_TYPE_BY_UPLOAD } from '../../../../shared/registry';
import { toast } from '../../../components/ui/toast';
import { useFieldsForm, type FieldValues } from '../../../kit/fields-form';
import { ConflictDialog } from '../../../kit/saving/conflict-dialog';
import { diffFields, sameValue, type ConflictRow } from '../../../kit/saving/conflict-diff';
import { DraftRestoreDialog } from '../../../kit/saving/draft-restore-dialog';
import { isConflict, useSaveRunner, useSaveShortcut } from '../../../kit/saving/save-runner';
import { UnsavedChangesGuard } from '../../../kit/saving/unsaved-changes-guard';
import { useDraft } from '../../../kit/saving/use-draft';
import { TRANSITION_DONE } from '../../../kit/workflow/transitions';
import type { ScheduleChange } from '../../../kit/workflow/schedule';
import { PresenceBar } from '../../../kit/presence/presence-bar';
import { useItemLease } from '../../../kit/presence/use-item-lease';
import { useLastSaved } from '../../../kit/presence/use-last-saved';
import { useApi } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { assetsKeys, foldersKeys } from '../../../lib/query-keys';
import { useAssetUsage } from '../api/get-asset-usage';
import { AssetActions } from './asset-actions';
import { AssetFields } from './asset-fields';
import { AssetHistory } from './asset-history';
import { AssetHeading } from './drawer-heading';
import { AssetPreview } from './asset-preview';
import { AssetUsageList } from './asset-usage-list';
import { AssetWorkflow } from './asset-workflow';

/** A save waiting to be sent: the fields changed, and a workflow state to reach. */
interface PendingSave {
  fields: FieldValues;
  state?: WorkflowState;
  /** The reason of a Reject. */
  comment?: string;
  /** Publish and unpublish times to set or clear. */
  schedule?: ScheduleChange;
}

/** A save answered 412: what it was, and the other version once read. */
interface Conflict {
  pending: PendingSave;
  theirs?: WithEtag<AssetMetadata>;
  rows: ConflictRow[];
  error?: unknown;
  busy?: 'reload' | 'overwrite' | null;
}

/**
 * The body of an asset's details: everything about one version of it. Saves send `If-Match` with the ETag the
 * form started from and only the fields that changed; a 412 opens the conflict dialog (nothing is overwritten
 * unseen), a 401 asks for the password and sends again. Edits are kept as a draft in this browser until saved,
 * and leaving with unsaved edits asks first.
 */
export function AssetEditor({
  path,
  current,
  user,
  canWrite: mayWrite,
  maxUploadBytes,
  hrefOfPage,
  onClose,
  reviewAltText = false,
}: {
  path: string;
  /** The image's file was just replaced elsewhere (the upload tray): review its alt text. */
  reviewAltText?: boolean;
  /** The asset as last read (a refetch after a replace or someone's save updates it). */
  current: WithEtag<AssetMetadata>;
  user: Pick<Me, 'username' | 'role'>;
  canWrite: boolean;
  maxUploadBytes?: number;
  hrefOfPage: (path: string) => string;
  onClose: (options?: { replace?: boolean }) => void;
}) {
  const client = useApi();
  const queryClient = useQueryClient();
  const runSave = useSaveRunner();
  const segments = useMemo(() => splitPath(path), [path]);
  const meta = current.data;
  const def = assetTypeDef(meta.type);
  // An image's alt text comes first: it is what most often needs writing.
  const defs = useMemo(() => {
    const all = def?.fields ?? [];
    if (!def || def.type !== BINARY_ASSET_TYPE_BY_UPLOAD.image) return all;
    return [...all.filter((d) => d.key === 'alttext'), ...all.filter((d) => d.key !== 'alttext')];
  }, [def]);
  const [initial] = useState(() => meta.fields);
  const form = useFieldsForm({ defs, initial });
  // Presence while open; the first change takes the check-out lease (kit/presence). While someone else holds it,
  // the panel is read-only until the user takes it over.
  const lease = useItemLease('asset', segments, mayWrite && form.isDirty);
  const canWrite = mayWrite && lease.heldBy === null;
  /** The version the form's edits are made on. */
  const [base, setBase] = useState<WithEtag<AssetMetadata>>(current);
  const [saving, setSaving] = useState<'save' | 'schedule' | TransitionName | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const draft = useDraft<FieldValues>(canWrite ? { user: user.username, kind: 'asset', path } : null, {
    // A kept draft whose every value the asset already holds has nothing to give back.
    changesNothing: (found) =>
      Object.entries(found.data).every(([key, value]) => sameValue(value, current.data.fields[key])),
  });
  const usage = useAssetUsage(path);
  const itemLabel = `the asset “${meta.name}”`;
  const hasAltText = defs.some((d) => d.key === 'alttext');
  // After a replace the alt text describes the old image: say so, and put the cursor there.
  const [altTextReview, setAltTextReview] = useState(reviewAltText && hasAltText);
  useEffect(() => {
    if (altTextReview && canWrite) form.form.setFocus('alttext', { shouldSelect: true });
  }, [altTextReview, canWrite, form.form]);

  // A newer version arrived (a replaced file, a refetch): the form follows it unless the user is editing.
  useEffect(() => {
    if (current.etag === base.etag || form.isDirty) return;
    form.reset(current.data.fields);
    setBase(current);
  }, [current, base.etag, form]);

  const applySaved = useCallback(
    (saved: WithEtag<AssetMetadata>) => {
      queryClient.setQueryData(assetsKeys.detail(path), saved);
      form.reset(saved.data.fields);
      setBase(saved);
      void draft.discard();
      void queryClient.invalidateQueries({ queryKey: assetsKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: assetsKeys.transitions(path) });
      void queryClient.invalidateQueries({ queryKey: assetsKeys.revisions(path) });
    },
    [queryClient, path, form, draft],
  );

  const send = (p: PendingSave, ifMatch: string | null) => {
    const body: AssetPutBody = {};
    if (Object.keys(p.fields).length > 0) body.fields = p.fields;
    if (p.state || p.schedule) {
      body.workflow = {
        ...(p.state ? { state: p.state } : {}),
        ...(p.comment === undefined ? {} : { comment: p.comment }),
        ...p.schedule,
      };
    }
    return runSave(() => client.assets.put(segments, body, { ifMatch: ifMatch ?? undefined }));
  };

  const openConflict = async (pending: PendingSave) => {
    setConflict({ pending, rows: [] });
    try {
      const theirs = await client.assets.get(segments);
      const mine = { ...base.data.fields, ...form.form.getValues() };
      const rows = diffFields(
        defs.map((d) => ({ key: d.key, label: d.label, group: 'Fields' })),
        base.data.fields,
        theirs.data.fields,
        mine,
        'Fields',
      );
      if (theirs.data.workflow.state !== base.data.workflow.state) {
        rows.push({
          key: 'workflow',
          group: 'Workflow',
          label: 'State',
          kind: 'changed',
          before: base.data.workflow.state,
          theirs: theirs.data.workflow.state,
          yours: pending.state,
        });
      }
      setConflict({ pending, theirs, rows });
    } catch (e) {
      setConflict({ pending, rows: [], error: e });
    }
  };

  /**
   * Sends a save; answers whether it went through (a conflict or an error is shown). The schedule's dialog shows
   * its own errors: they are thrown to it.
   */
  const commit = async (
    p: PendingSave,
    ifMatch: string | null,
    what: 'save' | 'schedule' | TransitionName,
  ): Promise<boolean> => {
    setSaving(what);
    setError(null);
    try {
      applySaved(await send(p, ifMatch));
      const done =
        what === 'save'
          ? 'Saved'
          : what === 'schedule'
            ? 'Schedule saved'
            : what === 'Approve'
              ? 'Published'
              : TRANSITION_DONE[what];
      toast.success(`${done}: ${meta.name}`, p.state ? `It is ${p.state} now.` : undefined);
      return true;
    } catch (e) {
      if (isConflict(e)) void openConflict(p);
      else if (what === 'schedule') throw e;
      else if (isApiError(e, 400)) {
        if (form.showServerErrors(e.errors, 'fields.').length > 0) setError(e);
      } else setError(e);
      return false;
    } finally {
      setSaving(null);
    }
  };

  const save = async (): Promise<boolean> => {
    if (!form.isDirty) return true;
    if (!(await form.validate())) return false;
    return commit({ fields: form.changes() }, base.etag, 'save');
  };

  const takeTransition = async (name: TransitionName, to: WorkflowState, comment?: string) => {
    // Unsaved edits go with the transition, in the same request.
    if (form.isDirty && !(await form.validate())) return;
    await commit({ fields: form.isDirty ? form.changes() : {}, state: to, comment }, base.etag, name);
  };

  const saveSchedule = async (schedule: ScheduleChange) => {
    // Unsaved edits go with the schedule, in the same request.
    if (form.isDirty && !(await form.validate())) return false;
    return commit({ fields: form.isDirty ? form.changes() : {}, schedule }, base.etag, 'schedule');
  };

  const savedBy = useLastSaved('asset', segments, conflict !== null);
  useSaveShortcut(() => void save(), canWrite && form.isDirty);

  const changeCount = draft.found ? Object.keys(draft.found.data).length : 0;
  // The panel's first frame holds the asset itself (heading, preview and facts, its fields); its workflow, actions,
  // uses and history follow in a render of their own right after, so opening it does not wait for all of them.
  const showAll = useDeferredValue(true, false);

  return (
    <>
      <AssetHeading asset={meta} onClose={() => onClose()} />
      <div className="drawer__body">
        <PresenceBar lease={lease} what="asset" />
        <AssetPreview asset={meta} />
        <AssetFields
          title={def?.binary ? 'Details' : 'Content'}
          form={form}
          canWrite={canWrite}
          saving={saving}
          error={error}
          altTextReview={altTextReview}
          // Every edit is kept in this browser as it is made; all undone, their draft goes too.
          onValuesChange={(changes) => draft.write(Object.keys(changes).length > 0 ? changes : null, base.etag)}
          onSave={() => void save()}
          onDiscard={() => form.reset(base.data.fields)}
        />
        {showAll && (
          <>
            <AssetWorkflow
              path={path}
              asset={meta}
              user={user}
              canWrite={canWrite}
              saving={saving}
              isDirty={form.isDirty}
              itemLabel={itemLabel}
              onTransition={(name, to, comment) => void takeTransition(name, to, comment)}
              onSaveSchedule={saveSchedule}
            />
            <AssetActions
              asset={meta}
              etag={base.etag}
              canWrite={canWrite}
              isDirty={form.isDirty}
              maxUploadBytes={maxUploadBytes}
              usage={usage.data?.usedBy}
              hrefOfPage={hrefOfPage}
              onReplaced={(saved) => {
                applySaved(saved);
                if (hasAltText) setAltTextReview(true);
                void queryClient.invalidateQueries({ queryKey: assetsKeys.usage(path) });
              }}
              onDeleted={async (trashId) => {
                await draft.discard();
                form.reset(form.form.getValues());
                queryClient.removeQueries({ queryKey: assetsKeys.detail(path) });
                const refresh = () =>
                  Promise.all([
                    queryClient.invalidateQueries({ queryKey: assetsKeys.lists() }),
                    queryClient.invalidateQueries({ queryKey: foldersKeys.detail(meta.folderPath), exact: true }),
                  ]);
                void refresh();
                const name = meta.name;
                toast.success(
                  `Deleted ${name}`,
                  trashId ? 'It is in the trash: Undo puts it back.' : undefined,
                  trashId
                    ? {
                        label: 'Undo',
                        onAction: () => {
                          client.trash
                            .restore({ id: trashId })
                            .then(refresh)
                            .then(() => toast.success(`Brought back ${name}`))
                            .catch((error: unknown) =>
                              toast.error(`Could not bring back ${name}`, errorMessage(error)),
                            );
                        },
                      }
                    : undefined,
                );
                onClose({ replace: true });
              }}
            />
            <AssetUsageList usage={usage} hrefOfPage={hrefOfPage} />
            <AssetHistory
              path={path}
              base={base}
              defs={defs}
              canRestore={canWrite}
              hasUnsavedChanges={form.isDirty}
              onRestored={applySaved}
            />
          </>
        )}
      </div>

      <UnsavedChangesGuard
        when={canWrite && form.isDirty}
        itemLabel={itemLabel}
        onSave={save}
        onDiscard={() => void draft.discard()}
        keptAsDraft
      />
      {draft.found && !draft.isLoading && (
        <DraftRestoreDialog
          draft={draft.found}
          currentEtag={base.etag}
          itemLabel={itemLabel}
          changeCount={changeCount}
          onRestore={() => {
            for (const [key, value] of Object.entries(draft.found!.data)) {
              form.form.setValue(key, value, { shouldDirty: true, shouldValidate: true });
            }
            draft.accept();
          }}
          onDiscard={() => void draft.discard()}
        />
      )}
      {conflict && (
        <ConflictDialog
          savedBy={savedBy}
          isOpen
          itemLabel={itemLabel}
          rows={conflict.rows}
          isLoading={!conflict.theirs && !conflict.error}
          error={conflict.error}
          busy={conflict.busy}
          onCancel={() => setConflict(null)}
          onReload={() => {
            if (!conflict.theirs) return;
            applySaved(conflict.theirs);
            setConflict(null);
          }}
          onOverwrite={async () => {
            if (!conflict.theirs) return;
            setConflict({ ...conflict, busy: 'overwrite' });
            try {
              applySaved(await send(conflict.pending, conflict.theirs.etag));
              toast.success(`Saved ${meta.name}`);
              setConflict(null);
            } catch (e) {
              if (isConflict(e)) void openConflict(conflict.pending);
              else setConflict({ ...conflict, busy: null, error: e });
            }
          }}
        />
      )}
    </>
  );
}
