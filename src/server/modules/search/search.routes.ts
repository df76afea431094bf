import { SearchQuery, SearchResults } from '../../../shared/api/search.js';
import { SEARCH_URL } from '../../../shared/api/paths.js';
import { answerJson } from '../../lib/respond.js';
import { actorOf, type App, problems } from '../../lib/http.js';
import type { SearchService } from './search.service.js';

/** The query keys that repeat (`?kind=page&kind=asset`): one value arrives as a string, so it becomes a list. */
const REPEATED = ['kind', 'state'] as const;

/** `GET /cms/rest/search`: full-text search of pages, assets and folder items. */
export function registerSearchRoutes(app: App, search: SearchService) {
  app.get(
    SEARCH_URL,
    {
      preValidation: async (request) => {
        const query = request.query as Record<string, unknown>;
        for (const key of REPEATED) if (typeof query[key] === 'string') query[key] = [query[key]];
      },
      schema: {
        tags: ['search'],
        summary: 'Find pages, assets and folder items by what they say',
        description:
          'Searches titles, SEO fields, every text field of every widget (rich text as its text), asset fields, alt ' +
          'text, file names and folder titles. Words match by English stem, `"a phrase"` matches words in order, ' +
          '`-word` excludes, and the last word also matches as a prefix while typing; the text is always taken as ' +
          'words, never as query syntax. Best match first (a title match before a body match); `snippet` is ' +
          'HTML-escaped with the matched words in `<mark>`. Only items the caller may read are answered. The index ' +
          'changes in the transaction of every write: a search after a write answers sees it. Pass `next` as ' +
          '`cursor` for the following page. When more items match than the server ranks (`CMS_SEARCH_RANK_LIMIT`, ' +
          '2,000), only the newest of them are ranked and answered, and `capped` says so.',
        querystring: SearchQuery,
        response: { 200: SearchResults, ...problems(404) },
      },
    },
    async (request, reply) =>
      answerJson<SearchResults>(reply, {
        value: await search.search(actorOf(request), request.query as SearchQuery),
      }),
  );
}
