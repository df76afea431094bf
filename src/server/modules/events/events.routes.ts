import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { EVENTS_URL } from '../../../shared/api/paths.js';
import { actorOf, type App, headerOf, problems } from '../../lib/http.js';
import type { EventHub } from './events.hub.js';

/** A `Last-Event-ID` header: a change id. */
const LAST_EVENT_ID = /^\d{1,15}$/;

/** GET /cms/rest/events: the live event stream (Server-Sent Events). */
export function registerEventsRoutes(app: App, hub: EventHub) {
  app.get(
    EVENTS_URL,
    {
      schema: {
        tags: ['events'],
        summary: 'Live events: every change of a page, folder item, asset or template (Server-Sent Events)',
        description:
          'A `text/event-stream` that stays open. Each change is an event `change` whose `id` is its position ' +
          'in the change log and whose `data` is a ChangeEvent (kind, itemId, path, the new etag or null, ' +
          'deleted, by, at), sent within a second of the write on whichever node made it. A reconnect with ' +
          '`Last-Event-ID` first gets the events it missed (the log keeps about 15 minutes); when it missed more ' +
          'than that, an event `reset` (`data: {"lastId": n}`) says to refetch everything shown. Comment lines ' +
          'keep an idle stream open; a shutdown ends it and clients reconnect.',
        produces: ['text/event-stream'],
        querystring: z.object({
          after: z
            .string()
            .regex(LAST_EVENT_ID, 'must be a change id')
            .optional()
            .describe(
              'Start after this change id (a first connection has no Last-Event-ID; `eventsAfter` of ' +
                '`GET /cms/rest/auth/me` says where the log stood). The header wins when both are sent.',
            ),
        }),
        response: {
          200: z
            .unknown()
            .describe('Events: `id: <n>`, `event: change|reset`, `data: <JSON>`, separated by blank lines'),
          ...problems(),
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const header = headerOf(request, 'last-event-id');
      const fromHeader = header !== undefined && LAST_EVENT_ID.test(header.trim()) ? Number(header) : undefined;
      const after = request.query.after;
      const lastEventId = fromHeader ?? (after !== undefined ? Number(after) : undefined);
      const body = new PassThrough();
      let gone = false;
      const stream = {
        actor,
        write(frame: string) {
          if (!gone) body.write(frame);
        },
        end() {
          if (!gone) body.end();
          gone = true;
        },
      };
      const leave = await hub.open(stream, lastEventId);
      reply.raw.once('close', () => {
        gone = true;
        leave();
        body.destroy();
      });
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(body);
    },
  );
}
