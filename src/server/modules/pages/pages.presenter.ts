import type { Page, PageCalendar, PageCode, PageSeo, Region, Widget } from '../../../shared/api/pages.js';
import type { TemplateRegion } from '../../../shared/api/templates.js';
import type { PageRow, WidgetWithAsset } from './pages.repository.js';
import { rejectionOf, scheduleOf } from '../../lib/workflow.js';

/** Everything a page's JSON is made from. */
export interface PageView {
  id: string;
  name: string;
  siteName: string;
  folderPath: string;
  page: PageRow;
  /** The regions of the page's template, in template order. */
  templateRegions: readonly TemplateRegion[];
  widgets: readonly WidgetWithAsset[];
  /** Folder path (`Assets/…`) of each asset folder that holds a linked shared asset, by folder id. */
  assetFolderPaths: ReadonlyMap<string, string>;
}

/** The stored SEO object with every member the contract has (older rows may lack `metaDescription`). */
export function seoOf(page: Pick<PageRow, 'seo'>): PageSeo {
  const s = JSON.parse(page.seo) as Partial<PageSeo>;
  return {
    browserTitle: s.browserTitle ?? '',
    hideSearch: s.hideSearch ?? false,
    tags: s.tags ?? [],
    categories: s.categories ?? [],
    metaDescription: s.metaDescription ?? '',
  };
}

export function calendarOf(page: Pick<PageRow, 'calendar'>): PageCalendar {
  const c = JSON.parse(page.calendar) as Partial<PageCalendar>;
  return { startDate: c.startDate ?? null, endDate: c.endDate ?? null, calendars: c.calendars ?? null };
}

export function codeOf(page: Pick<PageRow, 'code'>): PageCode {
  return JSON.parse(page.code) as PageCode;
}

/** Local content of a widget row (`{}` when it has none). */
export function localFieldsOf(w: Pick<WidgetWithAsset, 'fields'>): Record<string, string | null> {
  return w.fields ? (JSON.parse(w.fields) as Record<string, string | null>) : {};
}

function presentWidget(w: WidgetWithAsset, folders: ReadonlyMap<string, string>): Widget {
  const base = {
    id: w.id,
    type: w.type as Widget['type'],
    scope: w.scope as Widget['scope'],
    editable: w.editable === 1,
  };
  if (w.shared_asset_id) {
    return {
      ...base,
      asset: {
        fields: w.asset_fields ? (JSON.parse(w.asset_fields) as Record<string, string | null>) : {},
        name: w.asset_name ?? '',
        folderPath: (w.asset_parent_id && folders.get(w.asset_parent_id)) || '',
      },
    };
  }
  return { ...base, asset: { fields: localFieldsOf(w) } };
}

/**
 * The page resource: every region of the template in template order; a region with page widgets is `PAGE`,
 * any other is `TEMPLATE` with the template's widgets.
 */
export function presentPage(v: PageView): Page {
  const byRegion = new Map<string, WidgetWithAsset[]>();
  for (const w of v.widgets) {
    const list = byRegion.get(w.region) ?? [];
    list.push(w);
    byRegion.set(w.region, list);
  }
  const body: Region[] = v.templateRegions.map((r) => {
    const own = r.editable ? byRegion.get(r.name) : undefined;
    if (own?.length) {
      const widgets = [...own].sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
      return {
        name: r.name,
        type: 'PAGE' as const,
        editable: r.editable,
        widgets: widgets.map((w) => presentWidget(w, v.assetFolderPaths)),
      };
    }
    return {
      name: r.name,
      type: 'TEMPLATE' as const,
      editable: r.editable,
      widgets: r.widgets.map((w) => ({
        type: w.type,
        scope: w.scope,
        editable: w.editable,
        asset: { fields: w.asset.fields },
      })),
    };
  });
  return {
    id: v.id,
    name: v.name,
    siteName: v.siteName,
    folderPath: v.folderPath,
    ...pageHeadOf(v.page, v.name),
    body,
  };
}

/**
 * The members of a page that come from its row, in the order the page shows them: everything but its location and
 * its `body`, which comes last (page-docs.ts keeps a stored doc's body when only these change).
 */
export function pageHeadOf(p: PageRow, name: string) {
  const own = rowMembersOf(p, name);
  return {
    displayName: own.displayName,
    templateName: p.template_name,
    summary: own.summary,
    overridePostDate: own.overridePostDate,
    workflow: workflowOf(p),
    seo: own.seo,
    calendar: own.calendar,
    code: own.code,
  } satisfies Omit<Page, 'id' | 'name' | 'siteName' | 'folderPath' | 'body'>;
}

/** The members of a page that come from its row's own fields (what a PUT of fields changes). */
export function rowMembersOf(p: PageRow, name: string) {
  return {
    displayName: p.display_name ?? name,
    summary: p.summary,
    overridePostDate: p.override_post_date,
    seo: seoOf(p),
    calendar: calendarOf(p),
    code: codeOf(p),
  } satisfies Partial<Page>;
}

export function workflowOf(p: PageRow): Page['workflow'] {
  return {
    name: p.workflow_name,
    state: p.workflow_state,
    checkedOut: p.checked_out === 1,
    checkedOutUser: p.checked_out_user,
    rejection: rejectionOf(p.rejection),
    ...scheduleOf(p),
  };
}
