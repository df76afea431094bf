import { z } from 'zod';
import { WidgetType } from '../registry/widget-types.js';
import { commaListPattern, ItemName } from './common.js';
import { TrashId } from './trash.js';

/** Maximum regions of one template and widgets of one template region. */
export const MAX_TEMPLATE_REGIONS = 50;
export const MAX_TEMPLATE_WIDGETS = 100;

/** A template's name: the same rules as item names (it appears in URLs). */
export const TemplateName = ItemName;

/** A region's name: a short identifier (`header`, `main`, `sidebar-left`). */
export const RegionName = z
  .string()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]*$/,
    'may contain letters, digits, "_", "." and "-" and starts with one of the first two',
  );
/** RegionName's rule as one unanchored pattern (its length included). */
const REGION_NAME_ITEM = '[A-Za-z0-9][A-Za-z0-9_.-]{0,63}';

/** Field values of a widget's content: every value is a string, or null for unset (see the registry). */
export const WidgetFieldValues = z.record(z.string(), z.string().nullable());
export type WidgetFieldValues = z.infer<typeof WidgetFieldValues>;

/** A widget the template puts in one of its regions: the same on every page, never editable by pages. */
export const TemplateWidget = z.object({
  type: WidgetType,
  scope: z.literal('template'),
  editable: z.literal(false),
  /** The widget's settings or content, kept with the template (templates do not link shared assets). */
  asset: z.object({ fields: WidgetFieldValues }),
});
export type TemplateWidget = z.infer<typeof TemplateWidget>;

/** A region of a template. Editable regions are filled by pages and hold no template widgets. */
export const TemplateRegion = z.object({
  name: RegionName,
  /** Whether pages put their own widgets here. */
  editable: z.boolean(),
  widgets: z.array(TemplateWidget),
});
export type TemplateRegion = z.infer<typeof TemplateRegion>;

/** `GET /cms/rest/templates/<name>`: a template with its regions in page order and their template widgets. */
export const Template = z.object({
  name: z.string(),
  label: z.string(),
  description: z.string(),
  regions: z.array(TemplateRegion),
});
export type Template = z.infer<typeof Template>;

/** An entry of `GET /cms/rest/templates`. */
export const TemplateSummary = z.object({
  name: z.string(),
  label: z.string(),
  description: z.string(),
  regions: z.array(z.object({ name: z.string(), editable: z.boolean() })),
});
export type TemplateSummary = z.infer<typeof TemplateSummary>;
export const TemplateList = z.array(TemplateSummary);
export type TemplateList = z.infer<typeof TemplateList>;

/** A template widget as sent: `scope` and `editable` may be left out (they can only be `template` / false). */
export const TemplateWidgetInput = z.object({
  type: WidgetType,
  scope: z.literal('template').optional(),
  editable: z.literal(false).optional(),
  asset: z.object({ fields: WidgetFieldValues.optional() }).strict().optional(),
});
export type TemplateWidgetInput = z.infer<typeof TemplateWidgetInput>;

export const TemplateRegionInput = z.object({
  name: RegionName,
  /**
   * The region's name before this change, when it is renamed: pages' content in that region moves with it (a
   * Folio extension; without it a new name is a new region and the old one is removed).
   */
  previousName: RegionName.optional(),
  editable: z.boolean(),
  widgets: z.array(TemplateWidgetInput).max(MAX_TEMPLATE_WIDGETS).optional(),
});
export type TemplateRegionInput = z.infer<typeof TemplateRegionInput>;

/**
 * `PUT /cms/rest/templates/<name>` (admins): creates (regions required; label defaults to the name) or updates
 * the fields sent. `name`, when sent, must equal the URL's.
 */
export const TemplatePutBody = z.object({
  name: z.string().optional(),
  label: z.string().min(1).max(200).optional(),
  description: z.string().max(2000).optional(),
  regions: z
    .array(TemplateRegionInput)
    .min(1, 'a template has at least one region')
    .max(MAX_TEMPLATE_REGIONS)
    .superRefine((regions, ctx) => {
      const seen = new Set<string>();
      const renamed = new Set<string>();
      regions.forEach((r, i) => {
        if (seen.has(r.name))
          ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate region "${r.name}"` });
        seen.add(r.name);
        if (r.previousName !== undefined) {
          if (renamed.has(r.previousName)) {
            ctx.addIssue({
              code: 'custom',
              path: [i, 'previousName'],
              message: `region "${r.previousName}" is renamed twice`,
            });
          }
          renamed.add(r.previousName);
        }
        if (r.editable && r.widgets?.length) {
          ctx.addIssue({
            code: 'custom',
            path: [i, 'widgets'],
            message: 'an editable region holds no template widgets (pages fill it)',
          });
        }
      });
    })
    .optional(),
});
export type TemplatePutBody = z.infer<typeof TemplatePutBody>;

/** Most pages `GET /cms/rest/templates/<name>/usage` lists (`pageCount` counts them all). */
export const TEMPLATE_USAGE_LIMIT = 100;

/** A page or a site or section that uses a template. */
export const TemplateUser = z.object({
  /** By-path path (`demo/about/index`). */
  path: z.string(),
  /** `page`, or `site`/`section` for a landing page setting. */
  kind: z.enum(['page', 'site', 'section']),
  /** A page's display name, a site's or section's display title. */
  title: z.string(),
  href: z.string(),
});
export type TemplateUser = z.infer<typeof TemplateUser>;

/** A page, site or section in the trash that uses a template. */
export const TrashedTemplateUser = z.object({
  kind: z.enum(['page', 'site', 'section']),
  title: z.string(),
  /** The id of the trash entry it went with (`POST /cms/rest/trash/restore`, `DELETE /cms/rest/trash/{id}`). */
  trashId: TrashId,
  /** The path that entry was deleted from: the item's own, or the folder it went with. */
  deletedFrom: z.string(),
});
export type TrashedTemplateUser = z.infer<typeof TrashedTemplateUser>;

/**
 * `GET /cms/rest/templates/<name>/usage[?regions=a,b]`: the pages made from the template (with `regions`: only
 * those holding content in one of them), up to the limit, by path; and the sites and sections whose new landing
 * pages use it; and those of them in the trash. What a 409 TEMPLATE_IN_USE is about.
 */
export const TemplateUsage = z.object({
  pages: z.array(TemplateUser),
  pageCount: z.number().int().nonnegative(),
  sections: z.array(TemplateUser),
  /** Pages, sites and sections in the trash that use it (up to the limit): they hold a delete back too. */
  trashed: z.array(TrashedTemplateUser),
  trashedCount: z.number().int().nonnegative(),
});
export type TemplateUsage = z.infer<typeof TemplateUsage>;

/** The query of `GET /cms/rest/templates/<name>/usage`. */
export const TemplateUsageQuery = z.object({
  regions: z
    .string()
    .min(1, { message: 'must list region names separated by commas', abort: true })
    .regex(commaListPattern(REGION_NAME_ITEM), 'must list region names separated by commas')
    .optional()
    .describe('Comma-separated region names: only pages holding content in one of them.'),
});
