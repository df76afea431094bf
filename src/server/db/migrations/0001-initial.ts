import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';
import { LIBRARY_NODE_ID, ROOT_NODE_ID } from '../structure.js';

/** The whole schema of the first release: users and sessions, the tree, templates, pages, widgets, assets. */
export const initial: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('counters')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'bigint', (c) => c.notNull())
      .execute();
    if (isPostgres(db)) await sql`create sequence folio_ids`.execute(db);
    else await db.insertInto('counters').values({ name: 'ids', value: 0 }).execute();

    await db.schema
      .createTable('users')
      .addColumn('username', 'text', (c) => c.primaryKey())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull().references('users.username').onDelete('cascade'))
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_username').on('sessions').column('username').execute();

    await db.schema
      .createTable('login_failures')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('first_failure_at', 'bigint', (c) => c.notNull())
      .addColumn('locked_until', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('nodes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('parent_id', 'text', (c) => c.references('nodes.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('access_level', 'text')
      .addColumn('workflow', 'text')
      .addColumn('display_title', 'text')
      .addColumn('target_window', 'text')
      .addColumn('nav_class', 'text')
      .addColumn('template_name', 'text')
      .addColumn('external_url', 'text')
      .addColumn('link_target_id', 'text', (c) => c.references('nodes.id').onDelete('cascade'))
      .addColumn('landing_page_id', 'text', (c) => c.references('nodes.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('nodes_parent_name', ['parent_id', 'name'])
      .execute();
    await db.schema.createIndex('nodes_parent_kind_name').on('nodes').columns(['parent_id', 'kind', 'name']).execute();
    await db.schema.createIndex('nodes_link_target').on('nodes').column('link_target_id').execute();
    await db.schema.createIndex('nodes_landing_page').on('nodes').column('landing_page_id').execute();
    await db.schema.createIndex('nodes_kind_name').on('nodes').columns(['kind', 'name']).execute();

    await db.schema
      .createTable('templates')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('regions', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('pages')
      .addColumn('node_id', 'text', (c) => c.primaryKey().references('nodes.id').onDelete('cascade'))
      .addColumn('template_name', 'text', (c) => c.notNull().references('templates.name'))
      .addColumn('display_name', 'text')
      .addColumn('summary', 'text')
      .addColumn('override_post_date', 'text')
      .addColumn('workflow_name', 'text', (c) => c.notNull())
      .addColumn('workflow_state', 'text', (c) => c.notNull())
      .addColumn('checked_out', 'integer', (c) => c.notNull())
      .addColumn('checked_out_user', 'text', (c) => c.notNull())
      .addColumn('seo', 'text', (c) => c.notNull())
      .addColumn('calendar', 'text', (c) => c.notNull())
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('pages_template').on('pages').column('template_name').execute();

    await db.schema
      .createTable('assets')
      .addColumn('node_id', 'text', (c) => c.primaryKey().references('nodes.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('fields', 'text', (c) => c.notNull())
      .addColumn('search_text', 'text', (c) => c.notNull())
      .addColumn('workflow_name', 'text', (c) => c.notNull())
      .addColumn('workflow_state', 'text', (c) => c.notNull())
      .addColumn('checked_out', 'integer', (c) => c.notNull())
      .addColumn('checked_out_user', 'text', (c) => c.notNull())
      .addColumn('blob_key', 'text')
      .addColumn('content_type', 'text')
      .addColumn('size', 'bigint')
      .addColumn('sha256', 'text')
      .addColumn('image', 'text')
      .addColumn('file', 'text')
      .addColumn('thumbnail', 'text')
      .addColumn('thumb_blob_key', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('assets_updated').on('assets').columns(['updated_at', 'node_id']).execute();
    await db.schema.createIndex('assets_type').on('assets').column('type').execute();

    await db.schema
      .createTable('widgets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('page_id', 'text', (c) => c.notNull().references('pages.node_id').onDelete('cascade'))
      .addColumn('region', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('editable', 'integer', (c) => c.notNull())
      .addColumn('fields', 'text')
      .addColumn('shared_asset_id', 'text', (c) => c.references('assets.node_id'))
      .execute();
    await db.schema.createIndex('widgets_page').on('widgets').columns(['page_id', 'region', 'position']).execute();
    await db.schema.createIndex('widgets_shared_asset').on('widgets').column('shared_asset_id').execute();

    // The hidden root (parent of every site) and the asset library: structure, not content.
    const now = new Date().toISOString();
    const structural = { sort_order: 0, created_at: now, updated_at: now };
    await db
      .insertInto('nodes')
      .values([
        { id: ROOT_NODE_ID, parent_id: null, kind: 'root', name: '', ...structural },
        { id: LIBRARY_NODE_ID, parent_id: ROOT_NODE_ID, kind: 'library', name: 'Assets', ...structural },
      ])
      .execute();
  },
};
