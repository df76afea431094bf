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

/**
 * A widget type: its asset type (the content it holds, local or shared), or — for widgets without one
 * (navigation, title) — the settings it keeps as local fields.
 */
export interface WidgetTypeDef {
  type: WidgetType;
  label: string;
  category: WidgetCategory;
  /** The asset type of the widget's content; null when it keeps only `localFields`. */
  assetType: AssetType | null;
  /** Settings of widgets without an asset type. */
  localFields?: readonly FieldDef[];
}

const levels = (key: string, label: string): FieldDef => ({ key, label, format: 'number', editor: 'number-as-string' });

/** Every widget type, in palette order within its category. */
export const WIDGET_TYPES: readonly WidgetTypeDef[] = [
  { type: 'cmsRichText', label: 'Rich text', category: 'content', assetType: 'cmsRichTextAsset' },
  { type: 'cmsSimpleText', label: 'Simple text', category: 'content', assetType: 'cmsSimpleTextAsset' },
  { type: 'cmsRawHtml', label: 'Raw HTML', category: 'content', assetType: 'cmsRawHtmlAsset' },
  {
    type: 'cmsTitle',
    label: 'Title',
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
  { type: 'cmsEvent', label: 'Event', category: 'content', assetType: 'cmsEventAsset' },
  { type: 'cmsBlogPost', label: 'Blog post', category: 'content', assetType: 'cmsBlogPostAsset' },
  { type: 'cmsImage', label: 'Image', category: 'media', assetType: 'cmsImageAsset' },
  { type: 'cmsFile', label: 'File', category: 'media', assetType: 'cmsFileAsset' },
  { type: 'cmsFlash', label: 'Flash', category: 'media', assetType: 'cmsFlashAsset' },
  {
    type: 'cmsNavon',
    label: 'Navigation bar',
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
    category: 'navigation',
    assetType: null,
    localFields: [levels('start_level', 'Start level'), levels('levels', 'Levels shown')],
  },
  {
    type: 'cmsNavImage',
    label: 'Navigation image',
    category: 'navigation',
    assetType: null,
    localFields: [
      { key: 'image_size', label: 'Image size', format: 'text', editor: 'text', options: ['small', 'medium', 'large'] },
      levels('level', 'Navigation level'),
    ],
  },
  { type: 'cmsPageAutoList', label: 'Page auto list', category: 'list', assetType: 'cmsPageAutoList' },
  { type: 'cmsBlogIndex', label: 'Blog index', category: 'list', assetType: 'cmsSimpleAutoList' },
  { type: 'cmsFileAutoList', label: 'File auto list', category: 'list', assetType: 'cmsFileAutoList' },
  { type: 'cmsImageAutoList', label: 'Image auto list', category: 'list', assetType: 'cmsImageAutoList' },
  { type: 'cmsArchiveList', label: 'Archive list', category: 'list', assetType: 'cmsArchiveList' },
  { type: 'cmsTagList', label: 'Tag list', category: 'list', assetType: 'cmsTagList' },
  { type: 'cmsCategoryList', label: 'Category list', category: 'list', assetType: 'cmsCategoryList' },
  { type: 'cmsCalendar', label: 'Calendar', category: 'list', assetType: 'cmsCalendarAsset' },
  { type: 'cmsForm', label: 'Form', category: 'form', assetType: 'cmsFormAsset' },
  { type: 'cmsCommentsForm', label: 'Comments form', category: 'form', assetType: 'cmsCommentsFormAsset' },
  { type: 'cmsPoll', label: 'Poll', category: 'form', assetType: 'cmsPollAsset' },
  { type: 'cmsLogin', label: 'Login', category: 'form', assetType: 'cmsLoginAsset' },
  { type: 'cmsSecureLogin', label: 'Secure login', category: 'form', assetType: 'cmsSecureLogin' },
  { type: 'cmsRegistration', label: 'Registration', category: 'form', assetType: 'cmsRegistrationAsset' },
  { type: 'cmsRss', label: 'RSS feed', category: 'social', assetType: 'cmsRssAsset' },
];

const BY_TYPE = new Map(WIDGET_TYPES.map((w) => [w.type, w]));

/** The description of a widget type, or undefined for an unknown identifier. */
export function widgetTypeDef(type: string): WidgetTypeDef | undefined {
  return BY_TYPE.get(type as WidgetType);
}
