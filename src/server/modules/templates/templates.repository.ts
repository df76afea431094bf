import type { Kysely, Selectable } from 'kysely';
import { toNumber } from '../../db/dialect.js';
import { prepared } from '../../db/prepared.js';
import type { DB, TemplatesTable } from '../../db/schema.js';
import { TRASH_NODE_ID } from '../../db/structure.js';

export type TemplateRow = Selectable<TemplatesTable>;

// Prepared (db/prepared.ts): every page read and write looks its template up.
const FIND_TEMPLATE = prepared((db: Kysely<DB>, p: { name: string }) =>
  db.selectFrom('templates').selectAll().where('name', '=', p.name),
);

/** Ids of pages with a widget in one of `regions`. */
const widgetPagesIn = (db: Kysely<DB>, regions: readonly string[]) =>
  db.selectFrom('widgets').select('widgets.page_id').where('widgets.region', 'in', regions);

/** Every node below the trash root, with the trash entry it went with (the name of its top node there). */
const withTrash = (db: Kysely<DB>) =>
  db.withRecursive('trashed(id, entry)', (qb) =>
    qb
      .selectFrom('nodes')
      .select(['id', 'name as entry'])
      .where('parent_id', '=', TRASH_NODE_ID)
      .unionAll((q) =>
        q
          .selectFrom('nodes')
          .innerJoin('trashed', 'trashed.id', 'nodes.parent_id')
          .select(['nodes.id', 'trashed.entry']),
      ),
  );

/** Users of a template: in place (`live`) and in the trash. */
export interface UseCount {
  live: number;
  trashed: number;
}
const useCount = (r: { n: unknown; t: unknown }): UseCount => {
  const all = toNumber(r.n);
  const trashed = toNumber(r.t);
  return { live: all - trashed, trashed };
};

/** SQL of templates; takes a db or a transaction. */
export const templatesRepository = {
  find(db: Kysely<DB>, name: string) {
    return FIND_TEMPLATE.first(db, { name });
  },

  list(db: Kysely<DB>) {
    return db.selectFrom('templates').selectAll().orderBy('name').execute();
  },

  insert(db: Kysely<DB>, row: TemplateRow) {
    return db.insertInto('templates').values(row).execute();
  },

  update(db: Kysely<DB>, name: string, patch: Partial<Omit<TemplateRow, 'name'>>) {
    return db.updateTable('templates').set(patch).where('name', '=', name).execute();
  },

  async delete(db: Kysely<DB>, name: string) {
    await db.deleteFrom('templates').where('name', '=', name).execute();
  },

  /** How many pages use the template: those in place, and those in the trash. */
  async countPages(db: Kysely<DB>, name: string): Promise<UseCount> {
    const r = await withTrash(db)
      .selectFrom('pages')
      .leftJoin('trashed', 'trashed.id', 'pages.node_id')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('trashed.id').as('t')])
      .where('pages.template_name', '=', name)
      .executeTakeFirstOrThrow();
    return useCount(r);
  },

  /** How many sites and sections name the template for their landing page: in place, and in the trash. */
  async countSections(db: Kysely<DB>, name: string): Promise<UseCount> {
    const r = await withTrash(db)
      .selectFrom('nodes')
      .leftJoin('trashed', 'trashed.id', 'nodes.id')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('trashed.id').as('t')])
      .where('nodes.template_name', '=', name)
      .where('nodes.kind', 'in', ['site', 'section'])
      .executeTakeFirstOrThrow();
    return useCount(r);
  },

  /**
   * Pages made from the template (with `regions`: holding content in one of them), at most `limit`: those in place
   * or (`inTrash`) those in the trash, with the trash entry they went with.
   */
  pagesUsing(db: Kysely<DB>, name: string, regions: readonly string[] | undefined, limit: number, inTrash: boolean) {
    let q = withTrash(db)
      .selectFrom('pages')
      .leftJoin('trashed', 'trashed.id', 'pages.node_id')
      .select(['pages.node_id as id', 'pages.display_name as title', 'trashed.entry'])
      .where('pages.template_name', '=', name)
      .where('trashed.id', inTrash ? 'is not' : 'is', null);
    if (regions) q = q.where('pages.node_id', 'in', widgetPagesIn(db, regions));
    return q.orderBy('pages.node_id').limit(limit).execute();
  },

  /** How many pages `pagesUsing` would list without a limit, in place and in the trash. */
  async countPagesUsing(db: Kysely<DB>, name: string, regions: readonly string[] | undefined): Promise<UseCount> {
    let q = withTrash(db)
      .selectFrom('pages')
      .leftJoin('trashed', 'trashed.id', 'pages.node_id')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('trashed.id').as('t')])
      .where('pages.template_name', '=', name);
    if (regions) q = q.where('pages.node_id', 'in', widgetPagesIn(db, regions));
    return useCount(await q.executeTakeFirstOrThrow());
  },

  /** Sites and sections that name the template for their landing pages (`entry`: the trash entry, if trashed). */
  sectionsUsing(db: Kysely<DB>, name: string) {
    return withTrash(db)
      .selectFrom('nodes')
      .leftJoin('trashed', 'trashed.id', 'nodes.id')
      .select(['nodes.id', 'nodes.kind', 'nodes.display_title as title', 'trashed.entry'])
      .where('nodes.template_name', '=', name)
      .where('nodes.kind', 'in', ['site', 'section'])
      .execute();
  },

  /** Where the trash entries' items were deleted from, by entry id. */
  async trashedFrom(db: Kysely<DB>, entries: readonly string[]): Promise<Map<string, string>> {
    const ids = [...new Set(entries)].map(Number).filter(Number.isSafeInteger);
    if (!ids.length) return new Map();
    const rows = await db.selectFrom('trash').select(['id', 'path']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [String(r.id), r.path]));
  },

  /**
   * Moves the content pages of the template hold in renamed regions to the new names (`[from, to]` pairs, swaps
   * included: every region is first moved aside to a name no region can have, as region names hold no "/", then
   * to its new name).
   */
  async renameRegionContent(db: Kysely<DB>, name: string, renames: readonly (readonly [string, string])[]) {
    const pagesOf = db.selectFrom('pages').select('pages.node_id').where('pages.template_name', '=', name);
    for (const [i, [from]] of renames.entries()) {
      await db
        .updateTable('widgets')
        .set({ region: `/renaming/${i}` })
        .where('region', '=', from)
        .where('page_id', 'in', pagesOf)
        .execute();
    }
    for (const [i, [, to]] of renames.entries()) {
      await db
        .updateTable('widgets')
        .set({ region: to })
        .where('region', '=', `/renaming/${i}`)
        .where('page_id', 'in', pagesOf)
        .execute();
    }
  },

  /** Per region of `regions`: how many pages of the template hold content there. */
  async pagesWithContentIn(db: Kysely<DB>, name: string, regions: readonly string[]) {
    if (!regions.length) return [];
    const rows = await db
      .selectFrom('widgets')
      .innerJoin('pages', 'pages.node_id', 'widgets.page_id')
      .select((eb) => ['widgets.region', eb.fn.count('widgets.page_id').distinct().as('n')])
      .where('pages.template_name', '=', name)
      .where('widgets.region', 'in', regions)
      .groupBy('widgets.region')
      .orderBy('widgets.region')
      .execute();
    return rows.map((r) => ({ region: r.region, pages: toNumber(r.n) }));
  },
};
