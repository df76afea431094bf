import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { CSRF_HEADER } from '../../shared/api/auth.js';
import { isUniqueViolation } from '../db/dialect.js';
import type { DB } from '../db/schema.js';
import { SYSTEM_ACTOR } from '../lib/context.js';
import type { App } from '../lib/http.js';
import type { AuthService } from '../modules/auth/auth.service.js';
import { SESSION_COOKIE } from '../plugins/authenticate.js';

const SEED_MARKER = 'demo_seeded';
/** Values of the marker row: claimed by a node that is seeding; seeded; not seeded because sites existed. */
const SEED_RUNNING = 2;
const SEED_DONE = 1;
const SEED_SKIPPED = 0;

type Call = (method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) => Promise<LightMyRequestResponse>;

const richText = (html: string) => ({
  type: 'cmsRichText',
  scope: 'local',
  editable: true,
  asset: { fields: { text: html } },
});

/** Templates of the demo: a header and footer from the template around editable regions. */
const TEMPLATES = [
  {
    name: 'home',
    label: 'Home page',
    description: 'A home page: hero banner, content and a sidebar between the site header and footer.',
    regions: ['hero', 'content', 'sidebar'],
  },
  {
    name: 'article',
    label: 'Article',
    description: 'One column of text under a title, for articles and about pages.',
    regions: ['title', 'body'],
  },
  {
    name: 'two-column',
    label: 'Two columns',
    description: 'Main content with a sidebar, for listings and news.',
    regions: ['main', 'sidebar'],
  },
  {
    name: 'landing',
    label: 'Landing page',
    description: 'A full-width banner above three feature blocks, for campaign pages.',
    regions: ['banner', 'feature-1', 'feature-2', 'feature-3'],
  },
];

/** Two real images, drawn with sharp: a PNG logo and a JPEG hero picture. */
async function demoImages() {
  const logoSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80">
    <rect width="240" height="80" rx="12" fill="#1d4ed8"/>
    <circle cx="40" cy="40" r="22" fill="#facc15"/>
    <text x="76" y="52" font-family="sans-serif" font-size="34" font-weight="bold" fill="#ffffff">Folio</text></svg>`;
  const heroSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="600">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#0ea5e9"/><stop offset="1" stop-color="#f0f9ff"/></linearGradient></defs>
    <rect width="1600" height="600" fill="url(#sky)"/>
    <path d="M0 600 L300 320 L520 480 L820 220 L1120 460 L1380 300 L1600 420 L1600 600 Z" fill="#166534"/>
    <circle cx="1300" cy="120" r="60" fill="#fde047"/></svg>`;
  return {
    logo: await sharp(Buffer.from(logoSvg)).png().toBuffer(),
    hero: await sharp(Buffer.from(heroSvg)).jpeg({ quality: 82 }).toBuffer(),
  };
}

function multipart(fields: Record<string, string>, file: { name: string; type: string; data: Buffer }) {
  const boundary = `----folio-seed-${Date.now().toString(16)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
        `Content-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Seeds the demo site into an empty database, through the REST interface itself (so through the same routes,
 * validation and services as any client), signed in as `admin`. Does nothing when any site exists.
 */
export async function seedDemo(app: App, auth: AuthService, db: Kysely<DB>): Promise<boolean> {
  // Seed once per database: a marker row remembers it, so deleting every site does not bring the demo back.
  // The row is claimed before seeding (its primary key admits one insert), so when several nodes start at
  // once on an empty database exactly one of them seeds; the others go on serving.
  try {
    await db.insertInto('counters').values({ name: SEED_MARKER, value: SEED_RUNNING }).execute();
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
  let seeded = false;
  try {
    seeded = await seedThroughApi(app, auth);
  } catch (err) {
    // Let a later start try again (it finds the sites this attempt made, and stops).
    await db.deleteFrom('counters').where('name', '=', SEED_MARKER).execute();
    throw err;
  }
  await db
    .updateTable('counters')
    .set({ value: seeded ? SEED_DONE : SEED_SKIPPED })
    .where('name', '=', SEED_MARKER)
    .execute();
  return seeded;
}

/** Creates the demo content through the REST interface; false (and nothing done) when any site exists. */
async function seedThroughApi(app: App, auth: AuthService): Promise<boolean> {
  const { sessionId, user } = await auth.openSession(SYSTEM_ACTOR);
  const headers = { cookie: `${SESSION_COOKIE}=${sessionId}`, [CSRF_HEADER]: user.csrfToken };
  const call: Call = async (method, url, body) => {
    const res = await app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
    if (res.statusCode >= 400) throw new Error(`Demo seed: ${method} ${url} → ${res.statusCode} ${res.body}`);
    return res;
  };
  try {
    const sites = (await call('GET', '/cms/rest/sites')).json() as unknown[];
    if (sites.length > 0) return false;

    for (const t of TEMPLATES) {
      await call('PUT', `/cms/rest/templates/${t.name}`, {
        label: t.label,
        description: t.description,
        regions: [
          {
            name: 'header',
            editable: false,
            widgets: [{ type: 'cmsNavon', asset: { fields: { layout: 'horizontal', levels: '2' } } }],
          },
          ...t.regions.map((name) => ({ name, editable: true })),
          {
            name: 'footer',
            editable: false,
            widgets: [{ type: 'cmsRichText', asset: { fields: { text: '<p>© Folio demo site</p>' } } }],
          },
        ],
      });
    }

    const section = (displayTitle: string, templateName: string) => ({
      sectionInfo: { displayTitle, templateName, targetWindow: '_self', navClass: '' },
    });
    await call('PUT', '/cms/rest/folders/by-path/demo', { siteName: 'demo', ...section('Home', 'home') });
    await call('PUT', '/cms/rest/folders/by-path/demo/about', section('About us', 'article'));
    await call('PUT', '/cms/rest/folders/by-path/demo/about/team', section('Our team', 'article'));
    await call('PUT', '/cms/rest/folders/by-path/demo/news', section('News', 'two-column'));
    await call('PUT', '/cms/rest/folders/by-path/demo/folio-docs', {
      sectionInfo: {
        type: 'externallink',
        displayTitle: 'Documentation',
        targetWindow: '_blank',
        navClass: '',
        externalLinkUrl: 'https://example.org/folio/docs',
      },
    });
    await call('PUT', '/cms/rest/folders/by-path/demo/articles', {});

    const { logo, hero } = await demoImages();
    for (const [name, type, data, alt] of [
      ['logo.png', 'image/png', logo, 'The Folio logo'],
      ['hero.jpg', 'image/jpeg', hero, 'Green hills under a blue sky'],
    ] as const) {
      const path = `Assets/images/${name}`;
      const mp = multipart({ path }, { name, type, data });
      const res = await app.inject({
        method: 'POST',
        url: `/cms/rest/assets/binary/${path}`,
        headers: { ...headers, 'content-type': mp.contentType },
        payload: mp.body,
      });
      if (res.statusCode >= 400) throw new Error(`Demo seed: upload ${path} → ${res.statusCode} ${res.body}`);
      await call('PUT', `/cms/rest/assets/by-path/${path}`, { fields: { alttext: alt } });
    }
    await call('PUT', '/cms/rest/assets/by-path/Assets/snippets/contact', {
      type: 'cmsRichTextAsset',
      fields: { text: '<p><strong>Contact us</strong><br>hello@example.org · +1 555 0100</p>' },
    });
    await call('PUT', '/cms/rest/assets/by-path/Assets/snippets/opening-hours', {
      type: 'cmsSimpleTextAsset',
      fields: { text: 'Monday to Friday, 9:00–17:00' },
    });
    await call('PUT', '/cms/rest/assets/by-path/Assets/lists/latest-news', {
      type: 'cmsPageAutoList',
      fields: { displaytitle: 'Latest news', site_path: '//Sites/demo/news', enable_rss_feed: 'true' },
    });

    const sharedImage = (name: string) => ({
      type: 'cmsImage',
      scope: 'local',
      editable: true,
      asset: { name, folderPath: 'Assets/images', fields: {} },
    });
    const sharedSnippet = (name: string, type: string) => ({
      type,
      scope: 'local',
      editable: true,
      asset: { name, folderPath: 'Assets/snippets', fields: {} },
    });

    await call('PUT', '/cms/rest/pages/by-path/demo/index', {
      templateName: 'home',
      displayName: 'Welcome to the Folio demo',
      summary: 'The home page of the demo site.',
      seo: { browserTitle: 'Folio demo', hideSearch: false, tags: ['demo'], categories: ['Home'] },
      body: [
        { name: 'hero', type: 'PAGE', editable: true, widgets: [sharedImage('hero.jpg')] },
        {
          name: 'content',
          type: 'PAGE',
          editable: true,
          widgets: [
            richText(
              '<h2>Welcome</h2><p>This site shows what Folio does: sections with landing pages, folders of pages, ' +
                'shared assets and a workflow from draft to public.</p>',
            ),
          ],
        },
        { name: 'sidebar', type: 'PAGE', editable: true, widgets: [sharedSnippet('contact', 'cmsRichText')] },
      ],
    });
    await call('PUT', '/cms/rest/pages/by-path/demo/about/index', {
      templateName: 'article',
      displayName: 'About us',
      body: [
        {
          name: 'title',
          type: 'PAGE',
          editable: true,
          widgets: [{ type: 'cmsTitle', scope: 'local', editable: true, asset: { fields: { heading_level: 'h1' } } }],
        },
        {
          name: 'body',
          type: 'PAGE',
          editable: true,
          widgets: [richText('<p>We make content management pleasant.</p>')],
        },
      ],
    });
    await call('PUT', '/cms/rest/pages/by-path/demo/about/team/index', {
      templateName: 'article',
      displayName: 'Our team',
      body: [
        { name: 'body', type: 'PAGE', editable: true, widgets: [richText('<p>Editors, designers and engineers.</p>')] },
      ],
    });
    await call('PUT', '/cms/rest/pages/by-path/demo/news/index', {
      templateName: 'two-column',
      displayName: 'News',
      body: [
        { name: 'main', type: 'PAGE', editable: true, widgets: [richText('<p>The latest from the Folio team.</p>')] },
        { name: 'sidebar', type: 'PAGE', editable: true, widgets: [sharedSnippet('opening-hours', 'cmsSimpleText')] },
      ],
    });
    await call('PUT', '/cms/rest/pages/by-path/demo/articles/welcome', {
      templateName: 'article',
      displayName: 'Welcome to Folio',
      summary: 'A first article.',
      body: [
        {
          name: 'body',
          type: 'PAGE',
          editable: true,
          widgets: [richText('<p>Folio keeps your pages, sections and assets in order.</p>'), sharedImage('logo.png')],
        },
      ],
    });
    await call('PUT', '/cms/rest/pages/by-path/demo/articles/getting-started', {
      templateName: 'article',
      displayName: 'Getting started',
      body: [
        {
          name: 'body',
          type: 'PAGE',
          editable: true,
          widgets: [richText('<ol><li>Pick a section.</li><li>Add a page.</li><li>Submit it for review.</li></ol>')],
        },
      ],
    });
    await call('PUT', '/cms/rest/pages/by-path/demo/articles/press-kit', {
      templateName: 'landing',
      displayName: 'Press kit',
    });
    // Some content is published, some waits for review: the workflow has something to show. A published page's
    // shared assets are published with it (as the editor's approval offers), or its live copy would link drafts.
    for (const shared of ['Assets/images/hero.jpg', 'Assets/snippets/contact']) {
      await call('PUT', `/cms/rest/assets/by-path/${shared}`, { workflow: { state: 'Public' } });
    }
    await call('PUT', '/cms/rest/pages/by-path/demo/index', { templateName: 'home', workflow: { state: 'Public' } });
    await call('PUT', '/cms/rest/pages/by-path/demo/articles/welcome', {
      templateName: 'article',
      workflow: { state: 'Public' },
    });
    await call('PUT', '/cms/rest/pages/by-path/demo/articles/getting-started', {
      templateName: 'article',
      workflow: { state: 'Review' },
    });
    await call('PUT', '/cms/rest/assets/by-path/Assets/images/logo.png', { workflow: { state: 'Public' } });
    return true;
  } finally {
    await auth.logout(sessionId);
  }
}
