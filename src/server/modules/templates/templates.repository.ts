import type { Kysely, Selectable } from 'kysely';
import { toNumber } from '../../db/dialect.js';
import { prepared } from '../../db/prepared.js';
import type { DB, TemplatesTable } from '../../db/schema.js';

export type TemplateRow = Selectable<TemplatesTable>;

// Prepared (db/prepared.ts): every page read and write looks its template up.
const FIND_TEMPLATE = prepared((db: Kysely<DB>, p: { name: string }) =>
  db.selectFrom('templates').selectAll().where('name', '=', p.name),
);

/** Ids of pages with a widget in one of `regions`. */
const widgetPagesIn = (db: Kysely<DB>, regions: readonly string[]) =>
  db.selectFrom('widgets').select('widgets.page_id').where('widgets.region', 'in', regions);

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

  /** How many pages use the template. */
  async countPages(db: Kysely<DB>, name: string): Promise<number> {
    const r = await db
      .selectFrom('pages')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('template_name', '=', name)
      .executeTakeFirstOrThrow();
    return toNumber(r.n);
  },

  /** How many sites and sections name the template for their landing page. */
  async countSections(db: Kysely<DB>, name: string): Promise<number> {
    const r = await db
      .selectFrom('nodes')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('template_name', '=', name)
      .where('kind', 'in', ['site', 'section'])
      .executeTakeFirstOrThrow();
    return toNumber(r.n);
  },

  /** Pages made from the template (with `regions`: holding content in one of them), at most `limit`. */
  pagesUsing(db: Kysely<DB>, name: string, regions: readonly string[] | undefined, limit: number) {
    let q = db
      .selectFrom('pages')
      .select(['pages.node_id as id', 'pages.display_name as title'])
      .where('pages.template_name', '=', name);
    if (regions) q = q.where('pages.node_id', 'in', widgetPagesIn(db, regions));
    return q.orderBy('pages.node_id').limit(limit).execute();
  },

  /** How many pages `pagesUsing` would list without a limit. */
  async countPagesUsing(db: Kysely<DB>, name: string, regions: readonly string[] | undefined): Promise<number> {
    let q = db
      .selectFrom('pages')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('pages.template_name', '=', name);
    if (regions) q = q.where('pages.node_id', 'in', widgetPagesIn(db, regions));
    return toNumber((await q.executeTakeFirstOrThrow()).n);
  },

  /** Sites and sections that name the template for their landing pages. */
  sectionsUsing(db: Kysely<DB>, name: string) {
    return db
      .selectFrom('nodes')
      .select(['id', 'kind', 'display_title as title'])
      .where('template_name', '=', name)
      .where('kind', 'in', ['site', 'section'])
      .execute();
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
