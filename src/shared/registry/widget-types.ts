import { z } from 'zod';
import type { AssetType } from './asset-types.js';
import type { FieldDef } from './fields.js';

/** The 27 widget type identifiers of the interface. */
export const WIDGET_TYPE_IDS = [
  'cmsRawHtml',
  'cmsRichText',
  'cmsSimpleText',
  'cmsNavImage',
  'cmsNavon',
  'cmsNavTree',
  'cmsEvent',
  'cmsFile',
  'cmsFileAutoList',
  'cmsFlash',
  'cmsForm',
  'cmsCommentsForm',
  'cmsPageAutoList',
  'cmsBlogIndex',
  'cmsTagList',
  'cmsCategoryList',
  'cmsCalendar',
  'cmsArchiveList',
  'cmsImageAutoList',
  'cmsTitle',
  'cmsBlogPost',
  'cmsRss',
  'cmsLogin',
  'cmsRegistration',
  'cmsPoll',
  'cmsSecureLogin',
  'cmsImage',
] as const;
export const WidgetType = z.enum(WIDGET_TYPE_IDS);
export type WidgetType = z.infer<typeof WidgetType>;

/** What kind of widget it is, for grouping in the editor's palette. */
export type WidgetCategory = 'content' | 'media' | 'navigation' | 'list' | 'form' | 'social';

/** Each widget category's heading, in the order the editors show the groups. */
export const WIDGET_CATEGORY_LABEL: Record<WidgetCategory, string> = {
  content: 'Content',
  media: 'Media',
  navigation: 'Navigation',
  list: 'Lists',
  form: 'Forms',
  social: 'Social',
};

/**
 * A widget type: its asset type (the content it holds, local or shared), or — for widgets without one
 * (navigation, title) — the settings it keeps as local fields.
 */
export interface WidgetTypeDef {
  type: WidgetType;
  label: string;
  /** One sentence for the editor's palette: what the widget shows on the page. */
  description: string;
  category: WidgetCategory;
  /** The asset type of the widget's content; null when it keeps only `localFields`. */
  assetType: AssetType | null;
  /** Settings of widgets without an asset type. */
  localFields?: readonly FieldDef[];
}

const levels = (key: string, label: string): FieldDef => ({ key, label, format: 'number', editor: 'number-as-string' });

/** Every widget type, in palette order within its category. */
export const WIDGET_TYPES: readonly WidgetTypeDef[] = [
  {
    type: 'cmsRichText',
    label: 'Rich text',
    description: 'Formatted text with headings, lists, links, images and tables.',
    category: 'content',
    assetType: 'cmsRichTextAsset',
  },
  {
    type: 'cmsSimpleText',
    label: 'Simple text',
    description: 'Plain text without formatting.',
    category: 'content',
    assetType: 'cmsSimpleTextAsset',
  },
  {
    type: 'cmsRawHtml',
    label: 'Raw HTML',
    description: 'HTML you write yourself, published as it is.',
    category: 'content',
    assetType: 'cmsRawHtmlAsset',
  },
  {
    type: 'cmsTitle',
    label: 'Title',
    description: "The page's title as a heading, with an optional prefix and suffix.",
    category: 'content',
    assetType: null,
    localFields: [
      {
        key: 'heading_level',
        label: 'Heading level',
        format: 'text',
        editor: 'text',
        options: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
      },
      { key: 'prefix', label: 'Prefix', format: 'text', editor: 'text' },
      { key: 'suffix', label: 'Suffix', format: 'text', editor: 'text' },
    ],
  },
  {
    type: 'cmsEvent',
    label: 'Event',
    description: 'An event: when and where it happens, and what it is about.',
    category: 'content',
    assetType: 'cmsEventAsset',
  },
  {
    type: 'cmsBlogPost',
    label: 'Blog post',
    description: 'A blog post with its title, body and author.',
    category: 'content',
    assetType: 'cmsBlogPostAsset',
  },
  {
    type: 'cmsImage',
    label: 'Image',
    description: 'One image from the asset library.',
    category: 'media',
    assetType: 'cmsImageAsset',
  },
  {
    type: 'cmsFile',
    label: 'File',
    description: 'A link to download a file from the asset library.',
    category: 'media',
    assetType: 'cmsFileAsset',
  },
  {
    type: 'cmsFlash',
    label: 'Flash',
    description: 'A Flash movie from the asset library (for old content).',
    category: 'media',
    assetType: 'cmsFlashAsset',
  },
  {
    type: 'cmsNavon',
    label: 'Navigation bar',
    description: "The site's navigation bar, across or down the page.",
    category: 'navigation',
    assetType: null,
    localFields: [
      { key: 'layout', label: 'Layout', format: 'text', editor: 'text', options: ['horizontal', 'vertical'] },
      levels('levels', 'Levels shown'),
    ],
  },
  {
    type: 'cmsNavTree',
    label: 'Navigation tree',
    description: "The site's sections as a tree, from a chosen level.",
    category: 'navigation',
    assetType: null,
    localFields: [levels('start_level', 'Start level'), levels('levels', 'Levels shown')],
  },
  {
    type: 'cmsNavImage',
    label: 'Navigation image',
    description: 'Navigation entries shown as images.',
    category: 'navigation',
    assetType: null,
    localFields: [
      { key: 'image_size', label: 'Image size', format: 'text', editor: 'text', options: ['small', 'medium', 'large'] },
      levels('level', 'Navigation level'),
    ],
  },
  {
    type: 'cmsPageAutoList',
    label: 'Page auto list',
    description: 'Pages chosen by template, date and title, kept up to date automatically.',
    category: 'list',
    assetType: 'cmsPageAutoList',
  },
  {
    type: 'cmsBlogIndex',
    label: 'Blog index',
    description: 'The latest posts of a blog, chosen by a query.',
    category: 'list',
    assetType: 'cmsSimpleAutoList',
  },
  {
    type: 'cmsFileAutoList',
    label: 'File auto list',
    description: 'Every file of an asset folder, as a list of downloads.',
    category: 'list',
    assetType: 'cmsFileAutoList',
  },
  {
    type: 'cmsImageAutoList',
    label: 'Image auto list',
    description: 'Every image of an asset folder, as a gallery.',
    category: 'list',
    assetType: 'cmsImageAutoList',
  },
  {
    type: 'cmsArchiveList',
    label: 'Archive list',
    description: 'Links to pages by month of publication.',
    category: 'list',
    assetType: 'cmsArchiveList',
  },
  {
    type: 'cmsTagList',
    label: 'Tag list',
    description: 'The tags given to pages, each linking to its pages.',
    category: 'list',
    assetType: 'cmsTagList',
  },
  {
    type: 'cmsCategoryList',
    label: 'Category list',
    description: 'The categories given to pages, each linking to its pages.',
    category: 'list',
    assetType: 'cmsCategoryList',
  },
  {
    type: 'cmsCalendar',
    label: 'Calendar',
    description: 'A calendar of the pages that have dates.',
    category: 'list',
    assetType: 'cmsCalendarAsset',
  },
  {
    type: 'cmsForm',
    label: 'Form',
    description: 'A form visitors fill in and send.',
    category: 'form',
    assetType: 'cmsFormAsset',
  },
  {
    type: 'cmsCommentsForm',
    label: 'Comments form',
    description: "A form for visitors' comments on the page.",
    category: 'form',
    assetType: 'cmsCommentsFormAsset',
  },
  {
    type: 'cmsPoll',
    label: 'Poll',
    description: 'A question with answers visitors vote on.',
    category: 'form',
    assetType: 'cmsPollAsset',
  },
  {
    type: 'cmsLogin',
    label: 'Login',
    description: "A sign-in form for the site's members.",
    category: 'form',
    assetType: 'cmsLoginAsset',
  },
  {
    type: 'cmsSecureLogin',
    label: 'Secure login',
    description: 'A sign-in form for protected sections.',
    category: 'form',
    assetType: 'cmsSecureLogin',
  },
  {
    type: 'cmsRegistration',
    label: 'Registration',
    description: 'A form to become a member of the site.',
    category: 'form',
    assetType: 'cmsRegistrationAsset',
  },
  {
    type: 'cmsRss',
    label: 'RSS feed',
    description: "The latest entries of another site's RSS feed.",
    category: 'social',
    assetType: 'cmsRssAsset',
  },
];

const BY_TYPE = new Map(WIDGET_TYPES.map((w) => [w.type, w]));

/** The description of a widget type, or undefined for an unknown identifier. */
export function widgetTypeDef(type: string): WidgetTypeDef | undefined {
  return BY_TYPE.get(type as WidgetType);
}
