import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, isApiError } from '../../../../shared/api/client';
import { useApi } from '../../../lib/api';
import { sitesKeys } from '../../../lib/query-keys';

/** What the "New site" form sends. */
export interface NewSite {
  name: string;
  displayTitle: string;
  /** The template of the site's home page (its landing page, `index`). */
  templateName: string;
}

/**
 * Creates a site (admins): PUT of the site's folder resource with its display title and home page template,
 * create-only (`If-None-Match: *`), so an existing site of that name is refused as taken, never changed.
 */
export function useCreateSite() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, displayTitle, templateName }: NewSite) => {
      try {
        const { data } = await client.folders.put(
          [name],
          { siteName: name, sectionInfo: { displayTitle, templateName } },
          { ifNoneMatch: '*' },
        );
        return data;
      } catch (error) {
        if (isApiError(error, 412)) {
          throw new ApiError({
            status: 409,
            code: 'NAME_TAKEN',
            title: 'Conflict',
            detail: `A site named "${name}" already exists.`,
            errors: [{ path: 'body.siteName', message: 'is taken by another site' }],
          });
        }
        throw error;
      }
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sitesKeys.all }),
    // The form shows the error.
    meta: { errorToast: false },
  });
}
