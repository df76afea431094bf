import type { Kysely } from 'kysely';
import { DEFAULT_WORKFLOW } from '../../../shared/api/workflow.js';
import { isUniqueViolation, nextId } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { isoTime, type Actor } from '../../lib/context.js';
import { conflict, notFound } from '../../lib/errors.js';
import { newNodeRow, treeRepository } from '../tree/tree.repository.js';

/** Name of the landing page every site and section has. */
export const LANDING_PAGE_NAME = 'index';

export interface NewPageRecord {
  parentId: string;
  name: string;
  templateName: string;
  actor: Actor;
  now: number;
  displayName?: string | null;
}

/**
 * Inserts a fresh page (node + page row) inside the caller's transaction: Default Workflow, Draft, checked out
 * to the creator, empty SEO/calendar/code, no page content. Used by the pages service and by sections for their
 * landing pages. Throws 404 TEMPLATE_NOT_FOUND for an unknown template, 409 NAME_TAKEN for a taken name.
 */
export async function insertPageRecord(trx: Kysely<DB>, p: NewPageRecord): Promise<string> {
  const template = await trx
    .selectFrom('templates')
    .select('name')
    .where('name', '=', p.templateName)
    .executeTakeFirst();
  if (!template) throw notFound('TEMPLATE_NOT_FOUND', `No template named "${p.templateName}".`);
  const id = await nextId(trx, 'page');
  const ts = isoTime(p.now);
  try {
    await treeRepository.insert(trx, newNodeRow(id, p.parentId, 'page', p.name, ts));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('NAME_TAKEN', `Something named "${p.name}" already exists here.`);
    throw err;
  }
  await trx
    .insertInto('pages')
    .values({
      node_id: id,
      template_name: p.templateName,
      display_name: p.displayName ?? p.name,
      summary: null,
      override_post_date: null,
      workflow_name: DEFAULT_WORKFLOW,
      workflow_state: 'Draft',
      checked_out: 0,
      checked_out_user: '',
      seo: JSON.stringify({ browserTitle: '', hideSearch: false, tags: [], categories: [] }),
      calendar: JSON.stringify({ startDate: null, endDate: null, calendars: null }),
      code: '{}',
      created_at: ts,
      updated_at: ts,
      created_by: p.actor.username,
      updated_by: p.actor.username,
    })
    .execute();
  return id;
}
