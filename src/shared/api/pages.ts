import { z } from 'zod';
import { WidgetType } from '../registry/widget-types.js';
import { WidgetFieldValues } from './templates.js';
import { TransitionComment, WorkflowInfo, WorkflowSchedule, WorkflowState } from './workflow.js';

/** Limits of one page body. */
export const MAX_BODY_REGIONS = 100;
export const MAX_REGION_WIDGETS = 500;
export const MAX_KEYWORDS = 200;

/** `PAGE`: the region holds page content; `TEMPLATE`: it shows what the template puts there. */
export const RegionType = z.enum(['PAGE', 'TEMPLATE']);
export type RegionType = z.infer<typeof RegionType>;

/** `local`: the widget belongs to the page; `template`: it comes from the template. */
export const WidgetScope = z.enum(['local', 'template']);
export type WidgetScope = z.infer<typeof WidgetScope>;

/**
 * A widget's content. A local asset has only `fields`; a linked shared asset also has `name` and `folderPath`
 * (its place in the asset library, `Assets/...`), and its `fields` are the asset's current ones (read-only here).
 */
export const WidgetAsset = z.object({
  fields: WidgetFieldValues,
  name: z.string().optional(),
  folderPath: z.string().optional(),
});
export type WidgetAsset = z.infer<typeof WidgetAsset>;

/** A widget of a page body. */
export const Widget = z.object({
  /** Stable id of a page widget (send it back to keep the widget's identity); template widgets have none. */
  id: z.string().optional(),
  type: WidgetType,
  scope: WidgetScope,
  editable: z.boolean(),
  asset: WidgetAsset,
});
export type Widget = z.infer<typeof Widget>;

/** A region of a page body (2.3). */
export const Region = z.object({
  name: z.string(),
  type: RegionType,
  /** Whether the page may change this region. */
  editable: z.boolean(),
  widgets: z.array(Widget),
});
export type Region = z.infer<typeof Region>;

export const PageSeo = z.object({
  browserTitle: z.string(),
  /** True keeps the page out of search. */
  hideSearch: z.boolean(),
  tags: z.array(z.string()),
  categories: z.array(z.string()),
  metaDescription: z.string(),
});
export type PageSeo = z.infer<typeof PageSeo>;

export const PageCalendar = z.object({
  startDate: z.string().nullable(),
  /** After this date the page can be treated as expired. */
  endDate: z.string().nullable(),
  /** Names of the calendars the page appears in. */
  calendars: z.array(z.string()).nullable(),
});
export type PageCalendar = z.infer<typeof PageCalendar>;

/** Code the page adds: in `<head>`, right after `<body>` starts, and before `</body>` closes. `{}` when none. */
export const PageCode = z.object({
  head: z.string().optional(),
  afterStart: z.string().optional(),
  beforeClose: z.string().optional(),
});
export type PageCode = z.infer<typeof PageCode>;

/** The page resource (2.1). */
export const Page = z.object({
  id: z.string(),
  name: z.string(),
  siteName: z.string(),
  /** Folders between the site and the page; "" directly in the site. */
  folderPath: z.string(),
  displayName: z.string(),
  templateName: z.string(),
  summary: z.string().nullable(),
  /** The date to show as the page's post date instead of its creation date. */
  overridePostDate: z.string().nullable(),
  workflow: WorkflowInfo,
  seo: PageSeo,
  calendar: PageCalendar,
  code: PageCode,
  /** Every region of the template, in template order. */
  body: z.array(Region),
});
export type Page = z.infer<typeof Page>;

/** The answer of a page PUT: the page, plus `droppedRegions` when the PUT switched the template. */
export const PagePutResponse = Page.extend({
  /** Regions whose content the template switch dropped (the new template has no editable region of that name). */
  droppedRegions: z.array(z.string()).optional(),
});
export type PagePutResponse = z.infer<typeof PagePutResponse>;

// The whole rule is one pattern, so the OpenAPI document states it exactly: a real calendar day of a year from
// 0100 (29 February only in leap years), then an optional time and zone.
const YEAR = '(?:0[1-9]|[1-9]\\d)\\d{2}';
const LEAP_YEAR = '(?:(?:0[1-9]|[1-9]\\d)(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)';
const MONTH_DAY =
  '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))';
const TIME = '(?:T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,3})?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?';
const DATE_OR_TIME = new RegExp(`^(?:${YEAR}-${MONTH_DAY}|${LEAP_YEAR}-02-29)${TIME}$`);

/** A date `YYYY-MM-DD` or an ISO-8601 date-time (`2026-03-01T09:00:00Z`, `…T09:00:00.000+0000`). */
export const PageDate = z.string().regex(DATE_OR_TIME, 'must be a date YYYY-MM-DD or an ISO-8601 date-time');

const Keywords = z.array(z.string().min(1).max(255)).max(MAX_KEYWORDS);

/**
 * A widget's content as sent. `{fields}`: local content. `{name, folderPath}` (+ `fields`): convert to a new
 * shared asset there, or link the existing one (then `fields` are ignored). `{remove: true}`: detach / drop.
 */
export const WidgetAssetInput = z
  .object({
    fields: WidgetFieldValues.optional(),
    name: z.string().optional(),
    folderPath: z.string().optional(),
    remove: z.literal(true).optional(),
  })
  .superRefine((a, ctx) => {
    if ((a.name === undefined) !== (a.folderPath === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [a.name === undefined ? 'name' : 'folderPath'],
        message: 'name and folderPath go together (they name a shared asset)',
      });
    }
    if (a.remove && (a.fields !== undefined || a.name !== undefined || a.folderPath !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['remove'], message: 'remove is sent alone' });
    }
  });
export type WidgetAssetInput = z.infer<typeof WidgetAssetInput>;

export const WidgetInput = z.object({
  /** The id of a widget of this page, to keep (and possibly move or edit) it; leave out for a new widget. */
  id: z.string().optional(),
  type: WidgetType,
  scope: WidgetScope.optional(),
  editable: z.boolean().optional(),
  asset: WidgetAssetInput.optional(),
});
export type WidgetInput = z.infer<typeof WidgetInput>;

export const RegionInput = z.object({
  name: z.string().min(1).max(200),
  type: RegionType.optional(),
  editable: z.boolean().optional(),
  widgets: z.array(WidgetInput).max(MAX_REGION_WIDGETS),
});
export type RegionInput = z.infer<typeof RegionInput>;

/**
 * `PUT /cms/rest/pages/by-path/...`: creates (only `templateName` needed) or updates the fields sent. Nested
 * objects (`seo`, `calendar`, `code`, `workflow`) change only the members sent; `body` changes only the regions sent.
 */
export const PagePutBody = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  siteName: z.string().optional(),
  folderPath: z.string().optional(),
  displayName: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(255)
    .describe('Stored trimmed of leading and trailing white space (so it comes back trimmed); never empty.')
    .optional(),
  templateName: z.string({ error: 'is required' }).min(1, 'is required'),
  summary: z.string().max(10_000).nullable().optional(),
  overridePostDate: PageDate.nullable().optional(),
  workflow: z
    .object({
      name: z.string().optional(),
      state: WorkflowState.optional(),
      checkedOut: z.boolean().optional(),
      /** Ignored: the user who checks a page out is always the caller. */
      checkedOutUser: z.string().optional(),
      comment: TransitionComment.optional(),
      ...WorkflowSchedule,
    })
    .optional(),
  seo: z
    .object({
      browserTitle: z.string().max(500).optional(),
      hideSearch: z.boolean().optional(),
      tags: Keywords.optional(),
      categories: Keywords.optional(),
      metaDescription: z.string().max(2000).optional(),
    })
    .optional(),
  calendar: z
    .object({
      startDate: PageDate.nullable().optional(),
      endDate: PageDate.nullable().optional(),
      calendars: z.array(z.string().min(1).max(255)).max(100).nullable().optional(),
    })
    .optional(),
  code: z
    .object({
      head: z.string().nullable().optional(),
      afterStart: z.string().nullable().optional(),
      beforeClose: z.string().nullable().optional(),
    })
    .strict()
    .describe('Each member sent replaces the stored one: null removes it, "" is kept as an empty string.')
    .optional(),
  body: z.array(RegionInput).max(MAX_BODY_REGIONS).optional(),
});
export type PagePutBody = z.infer<typeof PagePutBody>;

/** The bulk workflow operations over every page below a folder. */
export const BULK_PAGE_OPERATIONS = {
  'approve-all': { transition: 'Approve', verb: 'Approved' },
  'submit-all': { transition: 'Submit', verb: 'Submitted' },
  'archive-all': { transition: 'Archive', verb: 'Archived' },
} as const;
export type BulkPageOperation = keyof typeof BULK_PAGE_OPERATIONS;
