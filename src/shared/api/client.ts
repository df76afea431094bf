/**
 * The typed fetch client of the Folio REST interface, used by the SPA, the tests and scripts alike.
 *
 * It uses only what browsers and Node 20 both provide (fetch, Headers, TextEncoder, btoa), so it runs anywhere.
 * Every response is checked against the shared zod schema of its resource; every failure — a problem JSON from
 * the server, an odd non-JSON answer, a broken connection, a response that breaks the contract — becomes one
 * `ApiError`. Later resources add one group each to `createClient` (see `sites` for the smallest example).
 */
import type { z } from 'zod';
import type { LoginBody, PasswordChangeBody, UserPutBody } from './auth.js';
import type { CopyBody, FindQuery, FolderPutBody, ItemKind, MoveBody, RenameBody } from './folders.js';
import type { AssetBulkAction, AssetListQueryInput, AssetPutBody, UploadAssetType } from './assets.js';
import type { BulkPageOperation, PagePutBody } from './pages.js';
import type { LeaseBody, LeaseKind } from './leases.js';
import type { RevisionKind, RevisionListQuery, VersionQuery } from './revisions.js';
import { API_BASE, assetBinaryHref, assetHref, folderHref, leaseHref, pageHref, SEARCH_URL } from './paths.js';
import type { SearchQuery } from './search.js';
import type { TrashRestoreBody } from './trash.js';
import type { TemplatePutBody } from './templates.js';
import type { ResponseSchemas } from './client-schemas.js';
import {
  createTransport,
  type ClientOptions,
  type LazySchema,
  type PutPreconditions,
  type RequestOptions,
} from './transport.js';

export {
  ApiError,
  apiErrorOf,
  CLIENT_ERROR_CODES,
  isApiError,
  isProblemDetails,
  type ApiErrorInit,
  type ClientErrorCode,
} from './api-error.js';
export {
  basicAuthorization,
  type BasicCredentials,
  type ClientOptions,
  type PutPreconditions,
  type RequestOptions,
  type WithEtag,
} from './transport.js';

let loadingSchemas: Promise<ResponseSchemas> | undefined;

/**
 * A response schema, loaded with the others on the first call (they and zod stay out of the SPA's first screen;
 * the load runs beside the first request's round trip). Also for what arrives outside a request (live events).
 */
export function loadSchema<K extends keyof ResponseSchemas>(name: K): Promise<z.ZodType<z.output<ResponseSchemas[K]>>> {
  loadingSchemas ??= import('./client-schemas.js').then(
    (m) => m.responseSchemas,
    (err: unknown) => {
      loadingSchemas = undefined; // A failed load (a deploy in between, a broken connection) is tried again.
      throw err;
    },
  );
  return loadingSchemas.then((all) => all[name] as unknown as z.ZodType<z.output<ResponseSchemas[K]>>);
}

/** The schema an answer is checked against (loadSchema), as the transport takes it. */
function schemaOf<K extends keyof ResponseSchemas>(name: K): LazySchema<z.output<ResponseSchemas[K]>> {
  return () => loadSchema(name);
}

/** Creates a client. One per app (the SPA) or per credential (scripts, tests). */
export function createClient(options: ClientOptions = {}) {
  const { request, requestWithEtag } = createTransport(options);
  const enc = encodeURIComponent;
  /** `/cms/rest/{pages|assets}/{revisions|restore}/<path>`. */
  const historyHref = (kind: RevisionKind, what: 'revisions' | 'restore', segments: readonly string[]) =>
    `${API_BASE}/${kind}/${what}/${segments.map(enc).join('/')}`;

  return {
    request,
    requestWithEtag,

    auth: {
      /** Signs in (sets the session cookie); a wrong password is an ApiError 401 that does not call onUnauthorized. */
      login: (body: LoginBody, signal?: AbortSignal) =>
        request('POST', `${API_BASE}/auth/login`, {
          body,
          schema: schemaOf('Me'),
          signal,
          skipUnauthorizedHandler: true,
        }),
      /** Ends the session on the server. */
      logout: () =>
        request('POST', `${API_BASE}/auth/logout`, { schema: schemaOf('Message'), skipUnauthorizedHandler: true }),
      /** The signed-in user (and the CSRF token of a cookie session). */
      me: (signal?: AbortSignal) => request('GET', `${API_BASE}/auth/me`, { schema: schemaOf('Me'), signal }),
      /**
       * Changes the signed-in user's own password; a wrong current password is a 400 on `body.currentPassword`.
       * The user's other sessions end; this one stays.
       */
      changePassword: (body: PasswordChangeBody) =>
        request('POST', `${API_BASE}/auth/password`, { body, schema: schemaOf('Message') }),
    },

    users: {
      list: (signal?: AbortSignal) => request('GET', `${API_BASE}/users`, { schema: schemaOf('UserList'), signal }),
      /** One user with its ETag (send it back as `ifMatch`). */
      get: (username: string, signal?: AbortSignal) =>
        requestWithEtag('GET', `${API_BASE}/users/${enc(username)}`, { schema: schemaOf('User'), signal }),
      /**
       * Creates (password required) or updates a user's role and/or password; `ifMatch` → 412 when it changed,
       * `ifNoneMatch: '*'` → create-only (412 when the username is taken).
       */
      put: (username: string, body: UserPutBody, pre: PutPreconditions = {}) =>
        request('PUT', `${API_BASE}/users/${enc(username)}`, { body, schema: schemaOf('User'), ...pre }),
      remove: (username: string, ifMatch?: string) =>
        request('DELETE', `${API_BASE}/users/${enc(username)}`, { schema: schemaOf('DeletedMessage'), ifMatch }),
    },

    sites: {
      /** Every site the signed-in user may read. */
      list: (signal?: AbortSignal) => request('GET', `${API_BASE}/sites`, { schema: schemaOf('SiteList'), signal }),
    },

    /** Sites, folders, sections, links and asset folders by path (`['demo', 'about']`, `['Assets', 'images']`). */
    folders: {
      /** The item with its ETag (send it back as `ifMatch`). */
      get: (segments: readonly string[], signal?: AbortSignal) =>
        requestWithEtag('GET', folderHref(segments), { schema: schemaOf('Folder'), signal }),
      /**
       * Creates or updates the item. `ifNoneMatch: '*'` makes it create-only (412 when something is there);
       * `ifMatch` makes an update fail with 412 when the item changed since it was read.
       */
      put: (segments: readonly string[], body: FolderPutBody, pre: PutPreconditions = {}) =>
        requestWithEtag('PUT', folderHref(segments), {
          body,
          schema: schemaOf('Folder'),
          ...pre,
        }),
      /**
       * Deletes the item to the trash (`trashId` names the entry); a non-empty one only with `includeSubFolders`
       * (409 FOLDER_NOT_EMPTY otherwise).
       */
      remove: (segments: readonly string[], opts: { includeSubFolders?: boolean; ifMatch?: string } = {}) =>
        request('DELETE', folderHref(segments), {
          schema: schemaOf('TrashedMessage'),
          query: { includeSubFolders: opts.includeSubFolders ? 'true' : undefined },
          ifMatch: opts.ifMatch,
        }),
      /** The item's children (of `kinds`; all when absent) with their titles, states, who changed them when. */
      children: (segments: readonly string[], signal?: AbortSignal, kinds?: readonly ItemKind[]) =>
        request('GET', `${API_BASE}/folders/children/by-path/${segments.map(enc).join('/')}`, {
          query: { kind: kinds?.length ? kinds.join(',') : undefined },
          schema: schemaOf('FolderChildren'),
          signal,
        }),
      /** What deleting the item would remove (counts by kind), for a confirmation. */
      contents: (segments: readonly string[], signal?: AbortSignal) =>
        request('GET', `${API_BASE}/folders/contents/by-path/${segments.map(enc).join('/')}`, {
          schema: schemaOf('FolderContents'),
          signal,
        }),
      /** Moves any item into another container; answers where it is now. */
      move: (body: MoveBody, ifMatch?: string) =>
        request('POST', `${API_BASE}/folders/move`, { body, schema: schemaOf('TreeItem'), ifMatch }),
      /** Copies an item with everything below it into a container (a taken name gets `-copy`). */
      copy: (body: CopyBody) => request('POST', `${API_BASE}/folders/copy`, { body, schema: schemaOf('TreeItem') }),
      /** Renames any item in its container; answers where it is now. */
      rename: (body: RenameBody, ifMatch?: string) =>
        request('POST', `${API_BASE}/folders/rename`, { body, schema: schemaOf('TreeItem'), ifMatch }),
      /** Items whose name or title contains `q` (any case), best matches first. */
      find: (query: { q: string; limit?: number; kind?: FindQuery['kind'] }, signal?: AbortSignal) =>
        request('GET', `${API_BASE}/folders/find`, { query, schema: schemaOf('FindResult'), signal }),
    },

    templates: {
      /** Every template, with its regions. */
      list: (signal?: AbortSignal) =>
        request('GET', `${API_BASE}/templates`, { schema: schemaOf('TemplateList'), signal }),
      /** One template with its regions and template widgets, and its ETag. */
      get: (name: string, signal?: AbortSignal) =>
        requestWithEtag('GET', `${API_BASE}/templates/${enc(name)}`, { schema: schemaOf('Template'), signal }),
      /**
       * Creates or replaces a template (admins); `ifMatch` → 412 when it changed since it was read, `ifNoneMatch:
       * '*'` → create-only (412 when the name is taken).
       */
      put: (name: string, body: TemplatePutBody, pre: PutPreconditions = {}) =>
        requestWithEtag('PUT', `${API_BASE}/templates/${enc(name)}`, { body, schema: schemaOf('Template'), ...pre }),
      /** The pages made from a template (with `regions`: holding content there) and the sections that name it. */
      usage: (name: string, opts: { regions?: readonly string[] } = {}, signal?: AbortSignal) =>
        request('GET', `${API_BASE}/templates/${enc(name)}/usage`, {
          schema: schemaOf('TemplateUsage'),
          query: { regions: opts.regions?.join(',') },
          signal,
        }),
      /** Deletes a template no page uses (409 TEMPLATE_IN_USE otherwise). */
      remove: (name: string, ifMatch?: string) =>
        request('DELETE', `${API_BASE}/templates/${enc(name)}`, { schema: schemaOf('DeletedMessage'), ifMatch }),
    },

    /** Pages by path (`['demo', 'articles', 'welcome']`). */
    pages: {
      /** The page with its ETag. */
      get: (segments: readonly string[], signal?: AbortSignal) =>
        requestWithEtag('GET', pageHref(segments), { schema: schemaOf('Page'), signal }),
      /**
       * PUT: creates the page (`{templateName}` is enough) or updates the fields sent. A PUT on an existing name
       * updates that page: creating callers send `ifNoneMatch: '*'` (412 when the name is taken).
       */
      put: (segments: readonly string[], body: PagePutBody, pre: PutPreconditions = {}) =>
        requestWithEtag('PUT', pageHref(segments), { body, schema: schemaOf('PagePutResponse'), ...pre }),
      /** Deletes the page with its local assets. */
      /** Deletes the page to the trash (`trashId` names the entry). */
      remove: (segments: readonly string[], ifMatch?: string) =>
        request('DELETE', pageHref(segments), { schema: schemaOf('TrashedMessage'), ifMatch }),
      /** The workflow transitions the caller may take on the page now. */
      transitions: (segments: readonly string[], signal?: AbortSignal) =>
        request('GET', `${API_BASE}/pages/transitions/${segments.map(enc).join('/')}`, {
          schema: schemaOf('TransitionsResponse'),
          signal,
        }),
      /** The page's revisions, newest first (`next` of the answer as `cursor` fetches more). */
      revisions: (segments: readonly string[], query: RevisionListQuery = {}, signal?: AbortSignal) =>
        request('GET', historyHref('pages', 'revisions', segments), {
          schema: schemaOf('RevisionList'),
          query,
          signal,
        }),
      /** The page as it was at `{revision}`, or its live version (`{version: 'live'}`: 404 NO_LIVE_REVISION). */
      version: (segments: readonly string[], version: VersionQuery, signal?: AbortSignal) =>
        requestWithEtag('GET', pageHref(segments), { schema: schemaOf('Page'), query: version, signal }),
      /** Makes a revision's content the page's current content (a new revision); `ifMatch` → 412 when stale. */
      restore: (segments: readonly string[], revision: number, ifMatch?: string) =>
        requestWithEtag('POST', historyHref('pages', 'restore', segments), {
          body: { revision },
          schema: schemaOf('Page'),
          ifMatch,
        }),
      /** Approves, submits or archives every page below a site, folder or section. */
      bulk: (operation: BulkPageOperation, folderSegments: readonly string[]) =>
        request('POST', `${API_BASE}/pages/${operation}/${folderSegments.map(enc).join('/')}`, {
          schema: schemaOf('Message'),
        }),
    },

    /** Check-out leases and presence of a page or asset (`kind`, by-path segments). */
    leases: {
      get: (kind: LeaseKind, segments: readonly string[], signal?: AbortSignal) =>
        request('GET', leaseHref(kind, segments), { schema: schemaOf('LeaseState'), signal }),
      /** The heartbeat: `edit` takes or renews the lease (409 LEASE_HELD when someone else holds it), `view` only says "open". */
      beat: (kind: LeaseKind, segments: readonly string[], body: LeaseBody, signal?: AbortSignal) =>
        request('POST', leaseHref(kind, segments), { body, schema: schemaOf('LeaseState'), signal }),
      /** Leaves the item: ends the caller's lease and presence (`keepalive` on `pagehide`). */
      leave: (kind: LeaseKind, segments: readonly string[], opts: { keepalive?: boolean } = {}) =>
        request('DELETE', leaseHref(kind, segments), { schema: schemaOf('LeaseState'), keepalive: opts.keepalive }),
    },

    /** The asset library by path (`['Assets', 'images', 'logo.png']`). */
    assets: {
      /** An asset's metadata with its ETag. */
      get: (segments: readonly string[], signal?: AbortSignal) =>
        requestWithEtag('GET', assetHref(segments), { schema: schemaOf('AssetMetadata'), signal }),
      /**
       * Creates a non-binary asset (`type` and its required fields) or updates any asset's fields and workflow.
       * `ifNoneMatch: '*'` makes it create-only; `ifMatch` makes an update fail with 412 when it changed.
       */
      put: (segments: readonly string[], body: AssetPutBody, pre: PutPreconditions = {}) =>
        requestWithEtag('PUT', assetHref(segments), {
          body,
          schema: schemaOf('AssetMetadata'),
          ...pre,
        }),
      /**
       * Deletes an asset to the trash (`trashId` names the entry); one that pages link only with `force` (409
       * ASSET_IN_USE otherwise).
       */
      remove: (segments: readonly string[], opts: { force?: boolean; ifMatch?: string } = {}) =>
        request('DELETE', assetHref(segments), {
          schema: schemaOf('TrashedMessage'),
          query: { force: opts.force ? 'true' : undefined },
          ifMatch: opts.ifMatch,
        }),
      /** A page of a folder's assets (keyset pagination: pass the answer's `nextCursor` as `cursor`). */
      list: (folderSegments: readonly string[], query: AssetListQueryInput = {}, signal?: AbortSignal) =>
        request('GET', `${API_BASE}/assets/list/${folderSegments.map(enc).join('/')}`, {
          schema: schemaOf('AssetList'),
          query: query as RequestOptions<unknown>['query'],
          signal,
        }),
      /** The pages that link the asset. */
      usage: (segments: readonly string[], signal?: AbortSignal) =>
        request('GET', `${API_BASE}/assets/usage/${segments.map(enc).join('/')}`, {
          schema: schemaOf('AssetUsage'),
          signal,
        }),
      /** The workflow transitions the caller may take on the asset now. */
      transitions: (segments: readonly string[], signal?: AbortSignal) =>
        request('GET', `${API_BASE}/assets/transitions/${segments.map(enc).join('/')}`, {
          schema: schemaOf('TransitionsResponse'),
          signal,
        }),
      /** The asset's revisions, newest first (`next` of the answer as `cursor` fetches more). */
      revisions: (segments: readonly string[], query: RevisionListQuery = {}, signal?: AbortSignal) =>
        request('GET', historyHref('assets', 'revisions', segments), {
          schema: schemaOf('RevisionList'),
          query,
          signal,
        }),
      /** The asset as it was at `{revision}`, or its live version (`{version: 'live'}`: 404 NO_LIVE_REVISION). */
      version: (segments: readonly string[], version: VersionQuery, signal?: AbortSignal) =>
        requestWithEtag('GET', assetHref(segments), { schema: schemaOf('AssetMetadata'), query: version, signal }),
      /** Makes a revision the asset's current fields (and file); `ifMatch` → 412 when stale. */
      restore: (segments: readonly string[], revision: number, ifMatch?: string) =>
        requestWithEtag('POST', historyHref('assets', 'restore', segments), {
          body: { revision },
          schema: schemaOf('AssetMetadata'),
          ifMatch,
        }),
      /** Approves, submits or archives every asset of a folder and its subfolders. */
      bulk: (action: AssetBulkAction, folderSegments: readonly string[]) =>
        request('POST', `${API_BASE}/assets/${action}/${folderSegments.map(enc).join('/')}`, {
          schema: schemaOf('AssetBulkResult'),
        }),
      /**
       * Uploads a file as a new binary asset (409 ASSET_ALREADY_EXISTS when the path is taken). Without progress:
       * the app's upload queue sends with XMLHttpRequest to report it.
       */
      upload: (
        segments: readonly string[],
        file: Blob,
        opts: { assetType?: UploadAssetType; signal?: AbortSignal } = {},
      ) => {
        const form = new FormData();
        form.set('path', segments.join('/'));
        if (opts.assetType) form.set('assetType', opts.assetType);
        form.set('file', file, segments[segments.length - 1]);
        return request('POST', assetBinaryHref(segments), {
          body: form,
          schema: schemaOf('AssetMetadata'),
          signal: opts.signal,
        });
      },
      /**
       * Puts a new file in a binary asset's place: its id, fields and page links stay (409 TYPE_MISMATCH when an
       * image gets a non-image; `ifMatch` → 412 when it changed). Without progress, as `upload`.
       */
      replace: (segments: readonly string[], file: Blob, opts: { ifMatch?: string; signal?: AbortSignal } = {}) => {
        const form = new FormData();
        form.set('file', file, segments[segments.length - 1]);
        return requestWithEtag('PUT', assetBinaryHref(segments), {
          body: form,
          schema: schemaOf('AssetMetadata'),
          ifMatch: opts.ifMatch,
          signal: opts.signal,
        });
      },
    },

    /**
     * Full-text search of pages, assets and folder items the caller may read, best match first; `next` of the
     * answer as `cursor` fetches more.
     */
    search: (query: SearchQuery, signal?: AbortSignal) =>
      request('GET', SEARCH_URL, {
        schema: schemaOf('SearchResults'),
        query,
        signal,
      }),

    trash: {
      /** Deleted items the caller may restore, newest first (`next` of the answer as `cursor` for more). */
      list: (query: { limit?: number; cursor?: string } = {}, signal?: AbortSignal) =>
        request('GET', `${API_BASE}/trash`, { schema: schemaOf('TrashList'), query, signal }),
      /** Puts an entry's item back where it was, or into the container at `to` (409 when the place is taken). */
      restore: (body: TrashRestoreBody) =>
        request('POST', `${API_BASE}/trash/restore`, { body, schema: schemaOf('TrashRestored') }),
      /** Deletes an entry's item for good (admins). */
      purge: (id: string) => request('DELETE', `${API_BASE}/trash/${enc(id)}`, { schema: schemaOf('DeletedMessage') }),
    },
  };
}

/** A client made by `createClient`. */
export type Client = ReturnType<typeof createClient>;
