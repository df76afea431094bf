import type { Kysely, Selectable } from 'kysely';
import { toNumber } from '../../db/dialect.js';
import { prepared } from '../../db/prepared.js';
import type { DB, TemplatesTable } from '../../db/schema.js';

export type TemplateRow = Selectable<TemplatesTable>;

// Prepared (db/prepared.ts): every page read and write looks its template up.
const FIND_TEMPLATE = prepared((db: Kysely<DB>, p: { name: string }) =>
  db.selectFrom('templates').selectAll().where('name', '=', p.name),
);

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
