import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { isApiError, type WithEtag } from '../../../../shared/api/client';
import type { Page, PagePutBody } from '../../../../shared/api/pages';
import { splitPath } from '../../../../shared/api/paths';
import { toast } from '../../../components/ui/toast';
import type { FieldsFormController } from '../../../kit/fields-form';
import { isConflict, useSaveRunner } from '../../../kit/saving/save-runner';
import { useDraft } from '../../../kit/saving/use-draft';
import { useApi } from '../../../lib/api';
import { assetsKeys, foldersKeys, pagesKeys } from '../../../lib/query-keys';
import { countChanges, docOf, planSave, rebase, type EditorDoc } from '../lib/editor-doc';
import { problemsSummary, serverProblems, standingProblems, whereOf, type SaveProblem } from '../lib/save-problems';

/** What a kept draft of the page editor holds: the edits and the version they were made on. */
export interface PageDraftData {
  base: Page;
  doc: EditorDoc;
}

/** The 412 under way: their version (once read) and which choice runs. */
export interface ConflictState {
  theirs: WithEtag<Page> | null;
  error: unknown;
  busy: 'reload' | 'overwrite' | null;
}

/**
 * The page editor's state: the page as last read or saved (base, with its ETag), what the user edits (doc), the
 * kept draft, saving (only what changed, If-Match, 401 → sign in again → retry, 412 → conflict) and resets.
 */
export function usePageEditor({
  path,
  user,
  initial,
  focusProblem,
}: {
  path: string;
  user: string;
  initial: WithEtag<Page>;
  /** Takes the focus to the field a problem is about. */
  focusProblem: (problem: SaveProblem) => void;
}) {
  const client = useApi();
  const queryClient = useQueryClient();
  const runSave = useSaveRunner();
  const segments = useMemo(() => splitPath(path), [path]);
  const [base, setBase] = useState(initial);
  const [doc, setDoc] = useState<EditorDoc>(() => docOf(initial.data));
  /** Bumped when the doc is replaced wholesale (reload, restore), so every form starts again from it. */
  const [version, setVersion] = useState(0);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [conflict, setConflict] = useState<ConflictState | null>(null);
  const [problems, setProblems] = useState<SaveProblem[]>([]);
  const controllers = useRef(new Map<string, FieldsFormController>());
  const draft = useDraft<PageDraftData>(
    { user, kind: 'page', path },
    {
      // Nothing to give back: no edit of the version it was made on, or the page as it is now already holds them.
      changesNothing: (found) =>
        countChanges(found.data.base, found.data.doc) === 0 || planSave(base.data, found.data.doc) === null,
    },
  );

  // Off the keystroke path: the save plan, the change count, the draft and what reads them (the header's line,
  // the outline) follow the doc in a render of their own after the keystroke's, which only redraws its widget.
  const settledDoc = useDeferredValue(doc);
  const plan = useMemo(() => planSave(base.data, settledDoc), [base, settledDoc]);
  const dirty = plan !== null;
  const changeCount = useMemo(() => (dirty ? countChanges(base.data, settledDoc) : 0), [dirty, base, settledDoc]);

  // Every edit is kept in this browser as it is made; when the edits are all undone, the draft of them goes too
  // (nothing is left to offer back when the page is opened again).
  const writeDraft = draft.write;
  useEffect(() => {
    writeDraft(dirty ? { base: base.data, doc: settledDoc } : null, base.etag);
  }, [dirty, settledDoc, base, writeDraft]);

  const replace = useCallback((next: WithEtag<Page>, nextDoc?: EditorDoc) => {
    setBase(next);
    setDoc(nextDoc ?? docOf(next.data));
    setVersion((v) => v + 1);
  }, []);

  /** Puts an earlier doc back (an undo); `remount`: field values change, so every form reads the doc again. */
  const restore = useCallback((next: EditorDoc, remount: boolean) => {
    setDoc(next);
    if (remount) setVersion((v) => v + 1);
  }, []);

  const afterSave = useCallback(
    (saved: WithEtag<Page>, sent: EditorDoc) => {
      setBase(saved);
      setDoc((current) => rebase(current, sent, saved.data));
      void draft.discard();
      queryClient.setQueryData(pagesKeys.detail(path), saved);
      void queryClient.invalidateQueries({ queryKey: pagesKeys.transitions(path) });
      void queryClient.invalidateQueries({ queryKey: pagesKeys.revisions(path) });
      // Shared assets made or linked on the page, and the tree's listings of the folder, may have changed.
      void queryClient.invalidateQueries({ queryKey: assetsKeys.all });
      void queryClient.invalidateQueries({ queryKey: foldersKeys.all });
    },
    [draft, path, queryClient],
  );

  /** Checks every widget form, in the page's order; answers the problems found, each naming its widget and field. */
  const validate = useCallback(async (): Promise<SaveProblem[]> => {
    const found: SaveProblem[] = [];
    for (const region of base.data.body) {
      for (const w of doc.regions[region.name] ?? []) {
        const c = controllers.current.get(w.key);
        if (!c || (await c.form.trigger())) continue;
        for (const d of c.defs) {
          const message = c.form.getFieldState(d.key).error?.message;
          if (!message) continue;
          const where = whereOf(w.type, region.name, d.label);
          found.push({ key: w.key, region: region.name, fieldKey: d.key, where, message, fields: w.fields });
        }
      }
    }
    return found;
  }, [base, doc]);

  const put = useCallback(
    (body: PagePutBody, etag: string | null) =>
      runSave(() => client.pages.put(segments, body, { ifMatch: etag ?? undefined })),
    [client, runSave, segments],
  );

  const openConflict = useCallback(async () => {
    setConflict({ theirs: null, error: null, busy: null });
    try {
      const theirs = await runSave(() => client.pages.get(segments));
      setConflict({ theirs, error: null, busy: null });
    } catch (error) {
      setConflict({ theirs: null, error, busy: null });
    }
  }, [client, runSave, segments]);

  /**
   * Saves what changed (and `extra`, e.g. a workflow state) in one PUT with If-Match. Resolves true when saved;
   * a 412 opens the conflict dialog and resolves false. `onRefused` also hears any other refusal (a dialog that
   * shows it beside its own fields).
   */
  const save = useCallback(
    async (
      extra: Partial<PagePutBody> = {},
      success?: string,
      onRefused?: (error: unknown) => void,
    ): Promise<boolean> => {
      if (saving) return false;
      const found = await validate();
      setProblems(found);
      if (found.length) {
        setSaveError(null);
        toast.error('Not saved', problemsSummary(found));
        focusProblem(found[0]!);
        return false;
      }
      const sent = doc;
      const body: PagePutBody = {
        ...(planSave(base.data, sent) ?? { templateName: base.data.templateName }),
        ...extra,
      };
      setSaving(true);
      setSaveError(null);
      try {
        const saved = await put(body, base.etag);
        afterSave(saved, sent);
        toast.success(
          success ?? 'Saved',
          success ? undefined : `“${saved.data.displayName || saved.data.name}” is saved.`,
        );
        return true;
      } catch (error) {
        if (isConflict(error)) void openConflict();
        else {
          setSaveError(error);
          onRefused?.(error);
          const named = serverProblems(isApiError(error) ? error.errors : [], body, sent);
          setProblems(named);
          if (named[0]) focusProblem(named[0]);
        }
        return false;
      } finally {
        setSaving(false);
      }
    },
    [afterSave, base, doc, focusProblem, openConflict, put, saving, validate],
  );

  const reloadTheirs = useCallback(() => {
    if (!conflict?.theirs) return;
    replace(conflict.theirs);
    queryClient.setQueryData(pagesKeys.detail(path), conflict.theirs);
    void draft.discard();
    setConflict(null);
    toast.info('Loaded their version', 'Your changes were dropped.');
  }, [conflict, draft, path, queryClient, replace]);

  const overwrite = useCallback(async () => {
    const theirs = conflict?.theirs;
    if (!theirs) return;
    setConflict({ theirs, error: null, busy: 'overwrite' });
    const live = new Set<string>();
    for (const r of theirs.data.body) for (const w of r.widgets) if (w.id) live.add(w.id);
    const sent = doc;
    const body = planSave(base.data, sent, live) ?? { templateName: base.data.templateName };
    try {
      const saved = await put(body, theirs.etag);
      // My changes now sit on their version: rebase on it so the ids of widgets they removed are not sent again.
      setBase(saved);
      setDoc(docOf(saved.data));
      setVersion((v) => v + 1);
      void draft.discard();
      queryClient.setQueryData(pagesKeys.detail(path), saved);
      void queryClient.invalidateQueries({ queryKey: pagesKeys.transitions(path) });
      void queryClient.invalidateQueries({ queryKey: pagesKeys.revisions(path) });
      setConflict(null);
      toast.success('Saved', 'Your version replaced theirs where you both changed something.');
    } catch (error) {
      if (isConflict(error)) void openConflict();
      else setConflict({ theirs, error, busy: null });
    }
  }, [base, conflict, doc, draft, openConflict, path, put, queryClient]);

  /**
   * Takes in the page as it is now when only its workflow moved since the base (the scheduler published or
   * archived it): the edits stay, made on the new version. Answers false, changing nothing, when its content
   * changed too.
   */
  const followWorkflow = useCallback(async () => {
    const now = await client.pages.get(segments);
    if (planSave(now.data, docOf(base.data)) !== null) return false;
    setBase(now);
    queryClient.setQueryData(pagesKeys.detail(path), now);
    void queryClient.invalidateQueries({ queryKey: pagesKeys.transitions(path) });
    return true;
  }, [base, client, path, queryClient, segments]);

  const discardChanges = useCallback(() => {
    replace(base);
    void draft.discard();
  }, [base, draft, replace]);

  const restoreDraft = useCallback(() => {
    const found = draft.found;
    if (!found) return;
    replace({ data: found.data.base, etag: found.baseEtag }, found.data.doc);
    draft.accept();
  }, [draft, replace]);

  return {
    base,
    doc,
    /** The doc as the outline, the change count and the draft see it: `doc` once the keystroke is drawn. */
    settledDoc,
    setDoc,
    version,
    plan,
    dirty,
    /** Whether the doc as it is this instant differs from the base (a key pressed right after typing). */
    hasChanges: () => planSave(base.data, doc) !== null,
    changeCount,
    saving,
    saveError,
    /** Why the last save did not go through, by widget and field (those fixed since left out). */
    problems: useMemo(() => standingProblems(problems, settledDoc), [problems, settledDoc]),
    clearSaveError: () => setSaveError(null),
    save,
    put,
    replace,
    restore,
    conflict,
    /** Reads their version and opens the conflict dialog (a save elsewhere, before one's own save fails). */
    openConflict,
    closeConflict: () => setConflict(null),
    reloadTheirs,
    overwrite,
    discardChanges,
    followWorkflow,
    draft,
    restoreDraft,
    controllers: controllers.current,
  };
}

export type PageEditorState = ReturnType<typeof usePageEditor>;
