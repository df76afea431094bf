import { z } from 'zod';
import { DeletedMessage } from '../../../shared/api/common.js';
import {
  RegionName,
  Template,
  TemplateList,
  TemplateName,
  TemplatePutBody,
  TemplateUsage,
} from '../../../shared/api/templates.js';
import { actorOf, type App, ifMatchOf, preconditionsOf, problems } from '../../lib/http.js';
import { answerJson } from '../../lib/respond.js';
import type { TemplatesService } from './templates.service.js';

const Params = z.object({ name: TemplateName });

/** Templates: list and read (everyone), create, update and delete (admins). */
export function registerTemplatesRoutes(app: App, templates: TemplatesService) {
  app.get(
    '/cms/rest/templates',
    {
      config: { cache: true },
      schema: {
        tags: ['templates'],
        summary: 'List templates with their regions',
        response: { 200: TemplateList, ...problems() },
      },
    },
    async (request) => templates.list(actorOf(request)),
  );

  app.get(
    '/cms/rest/templates/:name',
    {
      config: { cache: true },
      schema: {
        tags: ['templates'],
        summary: 'Get a template: regions in page order with their template widgets (strong ETag)',
        params: Params,
        response: { 200: Template, ...problems(404) },
      },
    },
    async (request, reply) => {
      const r = await templates.get(actorOf(request), request.params.name);
      return answerJson<Template>(reply, { json: r.json, etag: r.etag });
    },
  );

  app.get(
    '/cms/rest/templates/:name/usage',
    {
      config: { cache: true },
      schema: {
        tags: ['templates'],
        summary:
          'The pages made from a template (with regions=a,b: those holding content in one of them) and the sites ' +
          'and sections whose landing pages use it',
        params: Params,
        querystring: z.object({
          regions: z
            .string()
            .optional()
            .refine((s) => s === undefined || s.split(',').every((r) => RegionName.safeParse(r).success), {
              message: 'must list region names separated by commas',
            })
            .describe('Comma-separated region names: only pages holding content in one of them.'),
        }),
        response: { 200: TemplateUsage, ...problems(404) },
      },
    },
    async (request) => templates.usage(actorOf(request), request.params.name, request.query.regions?.split(',')),
  );

  app.put(
    '/cms/rest/templates/:name',
    {
      schema: {
        tags: ['templates'],
        summary: 'Create a template (regions required) or change the fields sent (admins; If-Match honoured)',
        params: Params,
        body: TemplatePutBody,
        response: { 200: Template, 201: Template, ...problems(403, 409, 412) },
      },
    },
    async (request, reply) => {
      const r = await templates.put(actorOf(request), request.params.name, request.body, preconditionsOf(request));
      return answerJson<Template>(reply, { json: r.json, etag: r.etag, status: r.created ? 201 : 200 });
    },
  );

  app.delete(
    '/cms/rest/templates/:name',
    {
      schema: {
        tags: ['templates'],
        summary: 'Delete a template no page uses (admins; If-Match honoured)',
        params: Params,
        response: { 200: DeletedMessage, ...problems(403, 404, 409, 412) },
      },
    },
    async (request) => {
      await templates.remove(actorOf(request), request.params.name, ifMatchOf(request));
      return { message: 'Deleted' as const };
    },
  );
}
