import { useMutation, useQueryClient } from '@tanstack/react-query';
import { splitPath } from '../../../../shared/api/paths';
import type { TransitionName, TransitionsResponse } from '../../../../shared/api/workflow';
import { toast } from '../../../components/ui/toast';
import { TRANSITION_DONE, transitionLabel } from '../../../kit/workflow/transitions';
import { useApi } from '../../../lib/api';
import { pagesKeys } from '../../../lib/query-keys';
import type { ExplorerItem } from '../../../lib/tree/items';

/**
 * Takes a workflow transition on a page from the explorer's menus: reads the page (its template and ETag), then
 * one PUT with the target state (and the reason of a Reject) and If-Match, so a page someone is saving at that moment is never overwritten.
 */
export function useTakePageTransition() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ item, name, comment }: { item: ExplorerItem; name: TransitionName; comment?: string }) => {
      const segments = splitPath(item.path);
      const transitions =
        queryClient.getQueryData<TransitionsResponse>(pagesKeys.transitions(item.path)) ??
        (await client.pages.transitions(segments));
      const t = transitions.transitions.find((x) => x.name === name);
      if (!t) throw new Error(`“${transitionLabel(name)}” is not possible for “${item.name}” now.`);
      const current = await client.pages.get(segments);
      return client.pages.put(
        segments,
        {
          templateName: current.data.templateName,
          workflow: { state: t.to, ...(comment === undefined ? {} : { comment }) },
        },
        { ifMatch: current.etag ?? undefined },
      );
    },
    onSuccess: (saved, { item, name }) => {
      queryClient.setQueryData(pagesKeys.detail(item.path), saved);
      void queryClient.invalidateQueries({ queryKey: pagesKeys.transitions(item.path) });
      toast.success(
        `${TRANSITION_DONE[name]}: “${saved.data.displayName || item.name}”`,
        `It is ${saved.data.workflow.state} now.`,
      );
    },
  });
}
