import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AssetBulkAction,
  AssetBulkResult,
  AssetDeleteQuery,
  AssetList,
  AssetListQuery,
  AssetMetadata,
  AssetPutBody,
  AssetUploadQuery,
  AssetUsage,
  BULK_TRANSITION,
  UploadAssetType,
} from '../../../shared/api/assets.js';
import { TrashedMessage } from '../../../shared/api/trash.js';
import { assetHref } from '../../../shared/api/paths.js';
import { VersionQuery } from '../../../shared/api/revisions.js';
import { TransitionsResponse } from '../../../shared/api/workflow.js';
import type { Config } from '../../config.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { actorOf, type App, headerOf, ifMatchOf, problems } from '../../lib/http.js';
import { answerJson } from '../../lib/respond.js';
import { sendProblem } from '../../plugins/problems.js';
import { itemPathOf, answerByPath, writeByPath, type VersionRead } from '../tree/paths.js';
import type { AssetsService, StoredUpload, UploadTarget } from './assets.service.js';
import { DOWNLOAD_RESPONSES } from './download.js';
import { trashedMessage } from '../trash/trash.presenter.js';

const BASE = '/cms/rest/assets';
const Wildcard = z.object({ '*': z.string() });
const MAX_FIELD_BYTES = 8 * 1024; // form fields of an upload besides the file

/** The upload form as OpenAPI shows it (the handler streams the parts; see the route's description). */
const UPLOAD_FORM = {
  type: 'object',
  required: ['file'],
  properties: {
    file: { type: 'string', format: 'binary', description: 'The file. Its own filename is ignored.' },
    path: { type: 'string', description: "Optional; must equal the URL's asset path." },
    assetType: { type: 'string', enum: ['file', 'flash', 'image'], description: 'Optional binary asset type.' },
  },
};

/**
 * The asset library's routes. The upload route lives in a plugin scope of its own with the multipart parser
 * (one file of at most CMS_MAX_UPLOAD_BYTES, a few small fields): @fastify/multipart adds an async `onRequest`
 * and `onResponse` hook to every route of its scope, which every other asset request would pay for.
 */
export async function registerAssetsRoutes(app: App, assets: AssetsService, config: Config, version?: VersionRead) {
  registerRoutes(app, assets, version);
  await app.register(async (plugin) => {
    await plugin.register(fastifyMultipart, {
      limits: {
        // One byte over the limit reaches the blob store, which refuses it and keeps nothing.
        fileSize: config.maxUploadBytes + 1,
        files: 1,
        fields: 10,
        fieldSize: MAX_FIELD_BYTES,
        parts: 20,
        headerPairs: 100,
      },
    });
    registerUploadRoute(plugin.withTypeProvider<ZodTypeProvider>() as App, assets);
  });
}

function registerRoutes(app: App, assets: AssetsService, versionOf?: VersionRead) {
  app.get(
    `${BASE}/by-path/*`,
    {
      config: {
        cache: true,
        provesActor: true,
      },
      schema: {
        tags: ['assets'],
        summary: 'Get asset metadata',
        description:
          "The asset at the path: type, fields, workflow state, the file's facts for a binary asset (size, " +
          'content type, dimensions, thumbnail) and its place in the library. The `ETag` answered is what PUT ' +
          'and DELETE take as `If-Match`. `?revision=N`: as at revision N; `?version=live`: its live revision.',
        params: Wildcard,
        querystring: VersionQuery,
        response: { 200: AssetMetadata, ...problems(400, 403, 404) },
      },
    },
    (request, reply) => answerByPath<AssetMetadata>(request, reply, assets.get, versionOf),
  );

  app.put(
    `${BASE}/by-path/*`,
    {
      config: { provesActor: true },
      schema: {
        tags: ['assets'],
        summary: 'Update an asset (only the fields sent), or create a non-binary asset',
        description:
          'Updates the asset at the path: `fields` sent change (`null` unsets one; "" is kept as an empty string, but a ' +
          'required field cannot be unset or ""), `workflow.state` walks the ' +
          'Default Workflow. When nothing is there, creates a non-binary asset of `type` (its required fields ' +
          'needed); folders are created on the way. `id`, `name`, `folderPath` must match the URL; `type` cannot change.',
        params: Wildcard,
        body: AssetPutBody,
        response: { 200: AssetMetadata, 201: AssetMetadata, ...problems(403, 404, 409, 412) },
      },
    },
    async (request, reply) => {
      const rep = await writeByPath(request, assets.put);
      if (rep.created) void reply.header('location', assetHref(rep.meta.folderPath.split('/').concat(rep.meta.name)));
      return answerJson<AssetMetadata>(reply, rep, rep.created ? 201 : 200);
    },
  );

  app.delete(
    `${BASE}/by-path/*`,
    {
      schema: {
        tags: ['assets'],
        summary: 'Delete an asset to the trash (with its file; purge=true for good)',
        description:
          'Moves the asset with its file and history to the trash (`trashId` names the entry: ' +
          '`POST /cms/rest/trash/restore` puts it back); `purge=true` (admins) deletes it for good. An asset ' +
          'used by pages (a widget links it, or an image, link or path in a widget refers to it) is refused ' +
          '(409 ASSET_IN_USE, `usedBy`) unless `force=true`, which removes the widgets linking it.',
        params: Wildcard,
        querystring: AssetDeleteQuery,
        response: { 200: TrashedMessage, ...problems(400, 403, 404, 409, 412) },
      },
    },
    async (request, reply) => {
      const trashId = await assets.remove(actorOf(request), itemPathOf(request), {
        force: request.query.force === 'true',
        ifMatch: ifMatchOf(request),
        purge: request.query.purge === 'true',
      });
      return answerJson<TrashedMessage>(reply, { value: trashedMessage(trashId) });
    },
  );

  app.get(
    `${BASE}/binary/*`,
    {
      config: { openApiResponses: DOWNLOAD_RESPONSES },
      schema: {
        tags: ['assets'],
        summary: 'Download an asset file (or its thumbnail: thumb_<name>)',
        description:
          'Streams the file as an attachment with its stored type, a strong ETag and Range support (206, 416). ' +
          '`GET …/binary/<folder>/thumb_<name>` downloads the thumbnail of an image asset.',
        // The document shows the file's own types and headers (config.openApiResponses).
        params: Wildcard,
        response: {
          200: z.unknown().describe('The file'),
          206: z.unknown().describe('Part of the file'),
          304: z.unknown().describe('Not modified'),
          ...problems(403, 404, 416),
        },
      },
    },
    async (request, reply) => {
      const res = await assets.download(actorOf(request), itemPathOf(request), {
        head: request.method === 'HEAD',
        range: headerOf(request, 'range'),
        ifRange: headerOf(request, 'if-range'),
        ifNoneMatch: headerOf(request, 'if-none-match'),
      });
      if (res.status === 416) {
        void reply.header('content-range', res.headers['content-range']!);
        return sendProblem(
          reply,
          416,
          'RANGE_NOT_SATISFIABLE',
          `The range is outside the file (${res.headers['content-range']}).`,
        );
      }
      if (res.status === 304) return reply.code(304).header('etag', res.headers.etag!).send();
      return reply.code(res.status).headers(res.headers).send(res.body);
    },
  );

  app.get(
    `${BASE}/list/*`,
    {
      config: { cache: true },
      schema: {
        tags: ['assets'],
        summary: 'List the assets of an asset folder (keyset pages)',
        description:
          '`q` finds words with the search engine (as GET /cms/rest/search: stems, the last word as a prefix, ' +
          '"phrases", -word) in name, title, alt text and fields; `type`, `state` filter; `sort` name|lastModifiedDate with ' +
          '`order` asc|desc; `recursive=true` includes subfolders. Pass `nextCursor` as `cursor` for the next page.',
        params: Wildcard,
        querystring: AssetListQuery,
        response: { 200: AssetList, ...problems(403, 404) },
      },
    },
    async (request, reply) =>
      answerJson<AssetList>(reply, {
        value: await assets.list(actorOf(request), itemPathOf(request, { allowEmpty: true }), request.query),
      }),
  );

  app.get(
    `${BASE}/usage/*`,
    {
      schema: {
        tags: ['assets'],
        summary: 'Where an asset is used: the page regions linking it or referring to it',
        description:
          'The pages, and their regions, whose widgets link the asset or refer to it in their text (an image, ' +
          'a link): what a DELETE without `force=true` refuses over (409 ASSET_IN_USE).',
        params: Wildcard,
        response: { 200: AssetUsage, ...problems(403, 404) },
      },
    },
    async (request, reply) =>
      answerJson<AssetUsage>(reply, { value: await assets.usage(actorOf(request), itemPathOf(request)) }),
  );

  app.get(
    `${BASE}/transitions/*`,
    {
      schema: {
        tags: ['assets'],
        summary: 'Workflow transitions of an asset available to the caller now',
        description:
          "The Default Workflow transitions (name and the state each leads to) that the caller's role and " +
          "access allow from the asset's state now. A PUT with `workflow.state` takes one.",
        params: Wildcard,
        response: { 200: TransitionsResponse, ...problems(403, 404) },
      },
    },
    async (request, reply) =>
      answerJson<TransitionsResponse>(reply, {
        value: await assets.transitions(actorOf(request), itemPathOf(request)),
      }),
  );

  for (const action of AssetBulkAction.options) {
    app.post(
      `${BASE}/${action}/*`,
      {
        schema: {
          tags: ['assets'],
          summary: `Take the ${action.replace('-all', '')} transition on every asset of a folder and its subfolders`,
          description:
            `Takes the ${BULK_TRANSITION[action]} transition on each asset below the asset folder that is in a state ` +
            'it leads from, in one transaction' +
            (action === 'approve-all' ? ' (archived assets stay archived: approve those one by one)' : '') +
            '. Assets in another state, or in subfolders the caller may only read, are skipped; the answer counts both.',
          params: Wildcard,
          response: { 200: AssetBulkResult, ...problems(403, 404) },
        },
      },
      async (request, reply) =>
        answerJson<AssetBulkResult>(reply, {
          value: await assets.bulk(actorOf(request), itemPathOf(request, { allowEmpty: true }), action),
        }),
    );
  }
}

/** 415 unless the request is a multipart form (checked before anything else of an upload). */
function assertMultipart(request: FastifyRequest): void {
  if (!request.isMultipart()) {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data with a "file" part.');
  }
}

/**
 * Reads an upload's multipart form part by part: the file streams into the blob store (never whole in memory),
 * the small fields are kept. Any failure deletes what was stored.
 */
async function readUploadForm(
  request: FastifyRequest,
  assets: AssetsService,
  target: UploadTarget,
): Promise<{ stored: StoredUpload; form: Record<string, string> }> {
  let stored: StoredUpload | null = null;
  const form: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw badRequest(`The file goes in the "file" part, not "${part.fieldname}".`, [
            { path: part.fieldname, message: 'is not a file part of this form' },
          ]);
        }
        stored = await assets.storeUpload(target, part.file);
        if (part.file.truncated) throw assets.uploadError({ code: 'FST_REQ_FILE_TOO_LARGE' });
      } else if (part.fieldname === 'path' || part.fieldname === 'assetType') {
        if (part.valueTruncated) {
          throw badRequest('A form field is too long.', [{ path: part.fieldname, message: 'is too long' }]);
        }
        form[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    await assets.discardUpload(stored);
    throw assets.uploadError(err);
  }
  if (!stored) throw badRequest('The form has no file.', [{ path: 'file', message: 'is required' }]);
  return { stored, form };
}

/**
 * POST of a new binary asset, and PUT of a new file for an existing one (replace in place). The multipart form
 * is streamed part by part, the file into the blob store.
 */
function registerUploadRoute(app: App, assets: AssetsService) {
  app.post(
    `${BASE}/binary/*`,
    {
      schema: {
        tags: ['assets'],
        summary: 'Upload a file as a new binary asset',
        description:
          '`multipart/form-data` with `file` (required; its own filename is ignored: the name comes from the URL), ' +
          "`path` (optional; must equal the URL's asset path) and `assetType` (optional `file`, `flash`, `image`; " +
          'also accepted as a query parameter). The type is sniffed from the bytes. 409 when an asset is there; ' +
          '413 over CMS_MAX_UPLOAD_BYTES or the pixel limit; 415 for disguised markup or active SVG.',
        consumes: ['multipart/form-data'],
        params: Wildcard,
        querystring: AssetUploadQuery,
        response: { 201: AssetMetadata, ...problems(403, 404, 409, 413, 415) },
      },
      config: { multipartBody: UPLOAD_FORM },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      assertMultipart(request);
      const target = await assets.prepareUpload(actor, itemPathOf(request));
      const { stored, form } = await readUploadForm(request, assets, target);
      try {
        const fromForm = form.assetType === undefined ? undefined : UploadAssetType.safeParse(form.assetType);
        if (fromForm && !fromForm.success) {
          throw badRequest('assetType is one of file, flash, image.', [
            { path: 'assetType', message: 'must be file, flash or image' },
          ]);
        }
        const fromQuery = request.query.assetType;
        if (fromForm && fromQuery && fromForm.data !== fromQuery) {
          throw badRequest('assetType differs between the query and the form.', [
            { path: 'assetType', message: `is ${fromQuery} in the query but ${fromForm.data} in the form` },
          ]);
        }
        const rep = await assets.completeUpload(actor, target, stored, {
          assetType: fromForm?.data ?? fromQuery,
          path: form.path,
        });
        void reply.header('location', assetHref(target.segments));
        return answerJson<AssetMetadata>(reply, rep, 201);
      } catch (err) {
        await assets.discardUpload(stored);
        throw err;
      }
    },
  );

  app.put(
    `${BASE}/binary/*`,
    {
      schema: {
        tags: ['assets'],
        summary: "Replace a binary asset's file in place",
        description:
          'The same form as the upload (`file`, optional `path`; `assetType` is not used: the asset keeps its ' +
          'type). The asset keeps its id, fields (alt text, titles) and the pages that link it; its file, ' +
          'dimensions and thumbnail are the new ones. An image takes only raster images (409 TYPE_MISMATCH); ' +
          'non-binary assets have no file (409). Honours `If-Match` (412). A Public asset moves to Quick Edit, ' +
          'as any change of its content does. 404 when nothing is there: POST creates.',
        consumes: ['multipart/form-data'],
        params: Wildcard,
        response: { 200: AssetMetadata, ...problems(403, 404, 409, 412, 413, 415) },
      },
      config: { multipartBody: UPLOAD_FORM },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      assertMultipart(request);
      const target = await assets.prepareReplace(actor, itemPathOf(request));
      const { stored, form } = await readUploadForm(request, assets, target);
      try {
        const rep = await assets.completeReplace(actor, target, stored, {
          path: form.path,
          ifMatch: ifMatchOf(request),
        });
        return answerJson<AssetMetadata>(reply, rep);
      } catch (err) {
        await assets.discardUpload(stored);
        throw err;
      }
    },
  );
}
