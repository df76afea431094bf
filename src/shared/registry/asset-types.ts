import { z } from 'zod';
import type { FieldDef } from './fields.js';

/** A kind of asset: its identifier, label, whether it holds a file, and its fields. */
export interface AssetTypeDef {
  type: string;
  label: string;
  /** One sentence for people choosing a type ("New asset" menu, palettes). */
  description: string;
  /** Binary assets are uploaded as files (POST …/assets/binary/…); the others are created with PUT. */
  binary: boolean;
  fields: readonly FieldDef[];
}

const t = (key: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  key,
  label,
  format: 'text',
  editor: 'text',
  ...extra,
});
const html = (key: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  key,
  label,
  format: 'html',
  editor: 'html',
  ...extra,
});
const date = (key: string, label: string): FieldDef => ({ key, label, format: 'date', editor: 'date' });
const datetime = (key: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  key,
  label,
  format: 'datetime',
  editor: 'datetime',
  ...extra,
});
const sitePath = (key: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  key,
  label,
  format: 'text',
  editor: 'site-path',
  ...extra,
});
const assetPath = (key: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  key,
  label,
  format: 'text',
  editor: 'asset-path',
  ...extra,
});
const query = (key = 'query'): FieldDef => ({
  key,
  label: 'Query',
  format: 'text',
  editor: 'code',
  help: 'A query in the content query language; leave it empty to use the other filters.',
});
const templates = (key: string): FieldDef => ({
  key,
  label: 'Templates',
  format: 'text',
  editor: 'template-list',
  help: 'Only pages made from these templates; none means every template.',
});

/** `formdata` of a form: a `config` object and the list of `fields`. */
export const FormData = z.object({ config: z.record(z.string(), z.unknown()), fields: z.array(z.unknown()) });
/** `pollQuestion` of a poll. */
export const PollQuestion = z.object({
  question: z.string().min(1),
  answerType: z.string().min(1),
  answerChoices: z.array(z.string()),
});
/** `formdata` of a comments form: an internal JSON object. */
export const CommentsFormData = z.record(z.string(), z.unknown());

/** Fields every binary asset has. */
export const BINARY_FIELDS: readonly FieldDef[] = [
  t('displaytitle', 'Display title'),
  t('resource_link_title', 'Link title'),
  t('filename', 'File name'),
  t('alttext', 'Alternative text', { help: 'Describes an image for people who cannot see it.' }),
];

/** Every asset type: the 3 binary ones and the 20 non-binary ones of the interface, with exactly their keys. */
export const ASSET_TYPES = [
  {
    type: 'cmsImageAsset',
    label: 'Image',
    description: 'An uploaded picture (PNG, JPEG, GIF, WebP, SVG) with its alternative text.',
    binary: true,
    fields: BINARY_FIELDS,
  },
  {
    type: 'cmsFileAsset',
    label: 'File',
    description: 'An uploaded document or download (PDF, office files, archives…).',
    binary: true,
    fields: BINARY_FIELDS,
  },
  {
    type: 'cmsFlashAsset',
    label: 'Flash',
    description: 'An uploaded Flash movie (kept for old sites; browsers no longer play it).',
    binary: true,
    fields: BINARY_FIELDS,
  },
  {
    type: 'cmsSimpleTextAsset',
    label: 'Simple text',
    description: 'Plain text with line breaks, no formatting.',
    binary: false,
    fields: [html('text', 'Text', { required: true, editor: 'textarea' })],
  },
  {
    type: 'cmsRichTextAsset',
    label: 'Rich text',
    description: 'Formatted text: headings, lists, links, images and tables.',
    binary: false,
    fields: [html('text', 'Text', { required: true })],
  },
  {
    type: 'cmsRawHtmlAsset',
    label: 'Raw HTML',
    description: 'HTML written by hand and published as it is.',
    binary: false,
    fields: [html('html', 'HTML', { required: true, editor: 'code' })],
  },
  {
    type: 'cmsArchiveList',
    label: 'Archive list',
    description: 'Links to pages grouped by month of publication.',
    binary: false,
    fields: [
      t('displaytitle', 'Display title'),
      sitePath('query_site_path', 'Site path', { required: true }),
      t('query_title_contains', 'Title contains'),
      templates('query_template_list'),
      date('query_published_after', 'Published after'),
      date('query_published_before', 'Published before'),
      query('query_string'),
      sitePath('archive_page_result', 'Result page'),
    ],
  },
  {
    type: 'cmsSimpleAutoList',
    label: 'Auto list',
    description: 'A list of pages chosen by a query.',
    binary: false,
    fields: [
      t('displaytitle', 'Display title'),
      { ...query(), required: true },
      { key: 'max_results', label: 'Maximum results', format: 'number', editor: 'number-as-string' },
    ],
  },
  {
    type: 'cmsBlogPostAsset',
    label: 'Blog post',
    description: 'A post with its title, body and author.',
    binary: false,
    fields: [
      t('displaytitle', 'Display title', { required: true }),
      html('postbody', 'Post', { required: true }),
      t('authorname', 'Author'),
    ],
  },
  {
    type: 'cmsCalendarAsset',
    label: 'Calendar',
    description: 'A calendar of the pages that have event dates.',
    binary: false,
    fields: [
      t('calendar_title', 'Title', { required: true }),
      t('calendar_unique_name', 'Unique name', { required: true, unique: true }),
      datetime('calendar_start_date', 'Start date'),
      sitePath('full_calendar_page', 'Full calendar page'),
    ],
  },
  {
    type: 'cmsCategoryList',
    label: 'Category list',
    description: 'Links to the categories given to pages, with their pages.',
    binary: false,
    fields: [
      t('displaytitle', 'Display title'),
      sitePath('site_path', 'Site path', { required: true }),
      t('title_contains', 'Title contains'),
      templates('page_templates_list'),
      date('start_date', 'Start date'),
      date('end_date', 'End date'),
      query(),
      sitePath('category_page_result', 'Result page'),
    ],
  },
  {
    type: 'cmsTagList',
    label: 'Tag list',
    description: 'Links to the tags given to pages, with their pages.',
    binary: false,
    fields: [
      t('displaytitle', 'Display title'),
      sitePath('site_path', 'Site path', { required: true }),
      t('title_contains', 'Title contains'),
      templates('page_templates_list'),
      date('start_date', 'Start date'),
      date('end_date', 'End date'),
      query(),
      sitePath('tag_page_result', 'Result page'),
    ],
  },
  {
    type: 'cmsCommentsFormAsset',
    label: 'Comments form',
    description: 'A form visitors use to comment on a page.',
    binary: false,
    fields: [
      {
        key: 'formdata',
        label: 'Form data',
        format: 'json',
        editor: 'json-structured',
        required: true,
        json: CommentsFormData,
        structure: 'settings',
      },
      html('renderedform', 'Rendered form', { editor: 'code' }),
    ],
  },
  {
    type: 'cmsFormAsset',
    label: 'Form',
    description: 'A form visitors fill in: its fields, title and description.',
    binary: false,
    fields: [
      t('formtitle', 'Form title', { required: true }),
      t('formuniquenamevalidator', 'Unique name', { unique: true }),
      t('description', 'Description', { editor: 'textarea' }),
      {
        key: 'formdata',
        label: 'Form data',
        format: 'json',
        editor: 'json-structured',
        required: true,
        json: FormData,
        structure: 'form',
      },
      html('renderedform', 'Rendered form', { editor: 'code' }),
    ],
  },
  {
    type: 'cmsEventAsset',
    label: 'Event',
    description: 'An event with its start, end, location and description.',
    binary: false,
    fields: [
      t('displaytitle', 'Display title', { required: true }),
      datetime('start_time', 'Starts', { required: true }),
      datetime('end_time', 'Ends'),
      t('location', 'Location'),
      t('callout', 'Callout'),
      html('body', 'Description'),
    ],
  },
  {
    type: 'cmsFileAutoList',
    label: 'File auto list',
    description: 'A list of the files in an asset folder.',
    binary: false,
    fields: [
      t('displaytitle', 'Display title'),
      assetPath('asset_library_path', 'Asset folder', { required: true }),
      t('title_contains', 'Title contains'),
      date('start_date', 'Start date'),
      date('end_date', 'End date'),
      query(),
    ],
  },
  {
    type: 'cmsImageAutoList',
    label: 'Image auto list',
    description: 'A gallery of the images in an asset folder.',
    binary: false,
    fields: [
      t('displaytitle', 'Display title'),
      assetPath('asset_library_path', 'Asset folder', { required: true }),
      t('title_contains', 'Title contains'),
      date('start_date', 'Start date'),
      date('end_date', 'End date'),
      query(),
    ],
  },
  {
    type: 'cmsPageAutoList',
    label: 'Page auto list',
    description: 'A list of pages chosen by filters, optionally as an RSS feed.',
    binary: false,
    fields: [
      t('displaytitle', 'Display title'),
      sitePath('site_path', 'Site path', { required: true }),
      t('title_contains', 'Title contains'),
      templates('page_templates_list'),
      date('start_date', 'Start date'),
      date('end_date', 'End date'),
      query(),
      { key: 'enable_rss_feed', label: 'RSS feed', format: 'boolean', editor: 'boolean-as-string' },
      t('feed_title', 'Feed title'),
      t('feed_name', 'Feed name'),
      t('feed_description', 'Feed description', { editor: 'textarea' }),
    ],
  },
  {
    type: 'cmsLoginAsset',
    label: 'Login',
    description: 'A sign-in form for members of the site.',
    binary: false,
    fields: [
      t('email_label', 'E-mail label'),
      t('password_label', 'Password label'),
      t('submit_label', 'Submit label', { required: true }),
      t('placeholder', 'Hint in the e-mail field'),
      { key: 'show_username', label: 'Show user name', format: 'boolean', editor: 'boolean-as-string' },
      t('not_logged_in_message', 'Message when signed out'),
      t('logged_in_message', 'Message when signed in'),
    ],
  },
  {
    type: 'cmsPollAsset',
    label: 'Poll',
    description: 'A question visitors answer by choosing one or more answers.',
    binary: false,
    fields: [
      t('pollTitle', 'Title'),
      t('pollUniqueName', 'Unique name', { required: true, unique: true }),
      {
        key: 'pollQuestion',
        label: 'Question and answers',
        format: 'json',
        editor: 'json-structured',
        required: true,
        json: PollQuestion,
        structure: 'poll',
      },
    ],
  },
  {
    type: 'cmsRssAsset',
    label: 'RSS feed',
    description: 'Entries of an RSS feed from another site.',
    binary: false,
    fields: [
      { key: 'rss_url', label: 'Feed address', format: 'url', editor: 'url', required: true },
      t('placeholder', 'Text while the feed loads'),
    ],
  },
  {
    type: 'cmsRegistrationAsset',
    label: 'Registration',
    description: 'A form visitors use to become members of the site.',
    binary: false,
    fields: [
      t('email_label', 'E-mail label'),
      t('password_label', 'Password label'),
      t('confirm_password_label', 'Confirm password label'),
      t('submit_label', 'Submit label', { required: true }),
    ],
  },
  {
    type: 'cmsSecureLogin',
    label: 'Secure login',
    description: 'A sign-in form for protected sections of the site.',
    binary: false,
    fields: [
      t('mainTitle', 'Title'),
      t('usernameLabel', 'User name label'),
      t('passwordLabel', 'Password label'),
      t('buttonLabel', 'Button label', { required: true }),
    ],
  },
] as const satisfies readonly AssetTypeDef[];

export type AssetType = (typeof ASSET_TYPES)[number]['type'];
export const ASSET_TYPE_IDS = ASSET_TYPES.map((a) => a.type) as [AssetType, ...AssetType[]];
export const AssetTypeId = z.enum(ASSET_TYPE_IDS);

const BY_TYPE = new Map<string, AssetTypeDef>(ASSET_TYPES.map((a) => [a.type, a]));

/** The description of an asset type, or undefined for an unknown identifier. */
export function assetTypeDef(type: string): AssetTypeDef | undefined {
  return BY_TYPE.get(type);
}

/** The binary types by the `assetType` value of an upload. */
export const BINARY_ASSET_TYPE_BY_UPLOAD = {
  image: 'cmsImageAsset',
  file: 'cmsFileAsset',
  flash: 'cmsFlashAsset',
} as const;
