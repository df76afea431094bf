import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Search speed (issue 39 item 5): a title match ranks before a body match, so the best hits of a frequent word are
 * found among the few items whose title holds it. A title index of its own lets the engine rank those few without
 * ranking every item the word occurs in: an FTS5 table over `search_docs.title` on SQLite (prefix indexes for the
 * word being typed), a `title_tsv` column with a GIN index on PostgreSQL.
 *
 * PostgreSQL also moves to `folio_english`: English stemming without the stopword list, as SQLite's Porter
 * tokenizer does ("the who" finds what it finds on both engines).
 */
export const searchTitleIndex: Migration = {
  async up(db: Kysely<any>) {
    if (isPostgres(db)) {
      await sql`create text search dictionary folio_english_stem (template = snowball, language = english)`.execute(db);
      await sql`create text search configuration folio_english (copy = english)`.execute(db);
      await sql`alter text search configuration folio_english
          alter mapping for asciiword, word, hword, hword_part, asciihword, hword_asciipart with folio_english_stem`.execute(
        db,
      );
      await sql`drop index search_docs_tsv`.execute(db);
      await sql`alter table search_docs drop column tsv`.execute(db);
      await sql`alter table search_docs
          add column tsv tsvector generated always as (
            setweight(to_tsvector('folio_english', title), 'A') || setweight(to_tsvector('folio_english', body), 'B')
          ) stored,
          add column title_tsv tsvector generated always as (to_tsvector('folio_english', title)) stored`.execute(db);
      await sql`create index search_docs_tsv on search_docs using gin (tsv)`.execute(db);
      await sql`create index search_docs_title_tsv on search_docs using gin (title_tsv)`.execute(db);
      return;
    }
    await sql`create virtual table search_title_fts using fts5(title, content='search_docs', content_rowid='id',
        tokenize='porter unicode61 remove_diacritics 2', prefix='2 3 4')`.execute(db);
    await sql`insert into search_title_fts (search_title_fts) values ('rebuild')`.execute(db);
    // Both FTS tables follow their content rows; the title one only when the title changes.
    for (const event of ['insert', 'delete', 'update']) {
      await sql`drop trigger ${sql.raw(`search_docs_search_${event}`)}`.execute(db);
    }
    await sql`create trigger search_docs_search_insert after insert on search_docs begin
        insert into search_fts (rowid, title, body) values (new.id, new.title, new.body);
        insert into search_title_fts (rowid, title) values (new.id, new.title);
      end`.execute(db);
    await sql`create trigger search_docs_search_delete after delete on search_docs begin
        insert into search_fts (search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body);
        insert into search_title_fts (search_title_fts, rowid, title) values ('delete', old.id, old.title);
      end`.execute(db);
    await sql`create trigger search_docs_search_update after update on search_docs begin
        insert into search_fts (search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body);
        insert into search_fts (rowid, title, body) values (new.id, new.title, new.body);
      end`.execute(db);
    await sql`create trigger search_docs_search_title_update after update of title on search_docs
        when new.title is not old.title begin
        insert into search_title_fts (search_title_fts, rowid, title) values ('delete', old.id, old.title);
        insert into search_title_fts (rowid, title) values (new.id, new.title);
      end`.execute(db);
  },
};
