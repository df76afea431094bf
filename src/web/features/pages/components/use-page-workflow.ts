import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { splitPath } from '../../../../shared/api/paths';
import type { TransitionName } from '../../../../shared/api/workflow';
import { toast } from '../../../components/ui/toast';
import { useSaveRunner } from '../../../kit/saving/save-runner';
import { TRANSITION_DONE } from '../../../kit/workflow/transitions';
import { useApi } from '../../../lib/api';
import { errorMessage, errorTitle } from '../../../lib/errors';
import { assetQueryOptions } from '../../../lib/queries/assets';
import { usePageTransitions } from '../../../lib/queries/pages';
import { sharedPath } from '../lib/editor-doc';
import type { PendingAsset } from './approve-assets-dialog';
import type { PageEditorState } from './use-page-editor';

/**
 * The page's workflow in the editor: the transitions it may take now, each saved with the edits; approving a page
 * whose shared assets are still drafts first offers to approve them too.
 */
export function usePageWorkflow(path: string, editor: PageEditorState) {
  const client = useApi();
  const queryClient = useQueryClient();
  const runSave = useSaveRunner();
  const transitions = usePageTransitions(path);
  const [approving, setApproving] = useState<{ to: string; assets: PendingAsset[] } | null>(null);
  const [pendingTransition, setPendingTransition] = useState<TransitionName | null>(null);
  const { doc } = editor;

  const runTransition = async (name: TransitionName, to: string, assets: PendingAsset[] = [], comment?: string) => {
    setPendingTransition(name);
    try {
      for (const a of assets) {
        const segments = splitPath(a.path);
        await runSave(() =>
          client.assets.put(segments, { workflow: { state: 'Public' } }, { ifMatch: a.etag ?? undefined }),
        );
      }
      const ok = await editor.save(
        { workflow: { state: to as 'Public', ...(comment === undefined ? {} : { comment }) } },
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

  const onTransition = async (name: TransitionName, comment?: string) => {
    const t = transitions.data?.transitions.find((x) => x.name === name);
    if (!t) return;
    if (name !== 'Approve') return void runTransition(name, t.to, [], comment);
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

  return { transitions, approving, setApproving, pendingTransition, runTransition, onTransition };
}
