import { z } from 'zod';

/** An entry of `GET /cms/rest/sites`: every site the user may read. */
export const SiteSummary = z.object({
  id: z.string(),
  name: z.string(),
  displayTitle: z.string(),
  /** The site's folder resource. */
  href: z.string(),
});
export type SiteSummary = z.infer<typeof SiteSummary>;
export const SiteList = z.array(SiteSummary);
