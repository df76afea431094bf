import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import type { TemplatePutBody } from '../../../../shared/api/templates';
import { useApi } from '../../../lib/api';
import { templatesKeys } from '../../../lib/query-keys';

/** GET /cms/rest/templates/<name>: a template with its regions and template widgets, and its ETag. */
export function templateQueryOptions(client: Client, name: string) {
  return queryOptions({
    queryKey: templatesKeys.detail(name),
    queryFn: ({ signal }) => client.templates.get(name, signal),
  });
}

/** One template (with its ETag) for its editor. */
export function useTemplate(name: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...templateQueryOptions(useApi(), name), enabled });
}

/** GET /cms/rest/templates/<name>/usage: the pages made from it (or holding content in `regions`) and sections. */
export function useTemplateUsage(name: string, regions: readonly string[] | undefined, enabled: boolean) {
  const client = useApi();
  return useQuery({
    queryKey: templatesKeys.usage(name, regions),
    queryFn: ({ signal }) => client.templates.usage(name, { regions }, signal),
    enabled,
    staleTime: 0,
  });
}

/**
 * PUT of a template (admins): creates it (`create`: If-None-Match: *, so never over an existing one: 412) or saves
 * changes with the ETag it was read with (412 when someone else changed it). Refreshes the list every page form
 * chooses from.
 */
export function usePutTemplate() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      name,
      body,
      etag,
      create,
    }: {
      name: string;
      body: TemplatePutBody;
      etag?: string;
      create?: boolean;
    }) => client.templates.put(name, body, create ? { ifNoneMatch: '*' } : { ifMatch: etag }),
    onSuccess: (saved, { name }) => {
      queryClient.setQueryData(templatesKeys.detail(name), saved);
      return queryClient.invalidateQueries({ queryKey: templatesKeys.list() });
    },
    // The editor shows the error (a TEMPLATE_IN_USE with the pages concerned).
    meta: { errorToast: false },
  });
}

/** DELETE of a template no page uses (409 TEMPLATE_IN_USE otherwise: the dialog lists what uses it). */
export function useDeleteTemplate() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, etag }: { name: string; etag?: string }) => client.templates.remove(name, etag),
    onSuccess: (_r, { name }) => {
      queryClient.removeQueries({ queryKey: templatesKeys.detail(name) });
      return queryClient.invalidateQueries({ queryKey: templatesKeys.list() });
    },
    meta: { errorToast: false },
  });
}
