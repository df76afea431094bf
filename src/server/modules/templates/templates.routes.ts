import { z } from 'zod';
import { DeletedMessage } from '../../../shared/api/common.js';
import {
  Template,
  TemplateList,
  TemplateName,
  TemplatePutBody,
  TemplateUsage,
  TemplateUsageQuery,
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
        description:
          'Every template by name, with its label and its regions in page order (editable or fixed). Everyone ' +
          'signed in may read them.',
        response: { 200: TemplateList, ...problems() },
      },
    },
    async (request, reply) => answerJson<TemplateList>(reply, { value: await templates.list(actorOf(request)) }),
  );

  app.get(
    '/cms/rest/templates/:name',
    {
      config: { cache: true },
      schema: {
        tags: ['templates'],
        summary: 'Get a template: regions in page order with their template widgets (strong ETag)',
        description:
          "The template's label, its regions in page order and the widgets it puts in its fixed regions. The " +
          '`ETag` answered is what PUT and DELETE take as `If-Match`.',
        params: Params,
        response: { 200: Template, ...problems(404) },
      },
    },
    async (request, reply) => {
      const r = await templates.get(actorOf(request), request.params.name);
      return answerJson<Template>(reply, r);
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
        description:
          'What a 409 TEMPLATE_IN_USE is about, and what a change of the regions would touch: the pages made ' +
          'from the template, up to a limit, with their total count, and the sites and sections whose new ' +
          'landing pages use it. `regions` keeps only the pages holding content in one of the regions named.',
        params: Params,
        querystring: TemplateUsageQuery,
        response: { 200: TemplateUsage, ...problems(404) },
      },
    },
    async (request, reply) =>
      answerJson<TemplateUsage>(reply, {
        value: await templates.usage(actorOf(request), request.params.name, request.query.regions?.split(',')),
      }),
  );

  app.put(
    '/cms/rest/templates/:name',
    {
      schema: {
        tags: ['templates'],
        summary: 'Create a template (regions required) or change the fields sent (admins; If-Match honoured)',
        description:
          'Admins only. A new template needs `regions` (its label defaults to the name). A region that pages ' +
          "fill is editable; a fixed region holds the template's own widgets, the same on every page. Removing " +
          'a region that pages hold content in is refused (409 TEMPLATE_IN_USE); `If-Match` names the current ' +
          'ETag (412 when stale).',
        params: Params,
        body: TemplatePutBody,
        response: { 200: Template, 201: Template, ...problems(403, 409, 412) },
      },
    },
    async (request, reply) => {
      const r = await templates.put(actorOf(request), request.params.name, request.body, preconditionsOf(request));
      return answerJson<Template>(reply, r, r.created ? 201 : 200);
    },
  );

  app.delete(
    '/cms/rest/templates/:name',
    {
      schema: {
        tags: ['templates'],
        summary: 'Delete a template no page uses (admins; If-Match honoured)',
        description:
          'Admins only. Refused while pages, sites or sections use it (409 TEMPLATE_IN_USE: GET …/usage tells ' +
          'which).',
        params: Params,
        response: { 200: DeletedMessage, ...problems(403, 404, 409, 412) },
      },
    },
    async (request, reply) => {
      await templates.remove(actorOf(request), request.params.name, ifMatchOf(request));
      return answerJson<DeletedMessage>(reply, { value: { message: 'Deleted' } });
    },
  );
}
