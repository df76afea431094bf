import type { AssetType, FieldDef, FieldFormat, WidgetType } from '../../shared/registry';
import type { FieldValues } from './fields-form';

/*
 * Sample values for every field of every widget and asset type: what the gallery (/kit) shows and what the kit's
 * tests fill in and send to the server. Each one passes the server's check of its field.
 */

const html =
  '<h2>Opening hours</h2><p>We are open <strong>every day</strong> from 9 to 5. <a href="https://example.com/visit">Plan your visit</a>.</p><ul><li>Guided tours at 11</li><li>Café on the ground floor</li></ul>';
const rawHtml = '<div class="notice" data-tone="info">\n  <p>Tickets are <em>free</em> on Sundays.</p>\n</div>';
const query = "select * from pages where template = 'news'";
const form = JSON.stringify({
  config: { submitLabel: 'Send', successMessage: 'Thank you!' },
  fields: [
    { type: 'text', name: 'name', label: 'Your name', required: true },
    { type: 'email', name: 'email', label: 'E-mail', required: true },
    { type: 'select', name: 'topic', label: 'Topic', required: false, options: ['Visit', 'Press', 'Other'] },
  ],
});
const poll = JSON.stringify({
  question: 'Which exhibition should come next?',
  answerType: 'single',
  answerChoices: ['Photography', 'Sculpture', 'Design'],
});
const comments = JSON.stringify({ moderated: true, maxLength: 2000, title: 'Join the conversation' });

/** Sample values of the non-binary and binary asset types. */
export const ASSET_SAMPLES: Record<AssetType, FieldValues> = {
  cmsImageAsset: {
    displaytitle: 'Museum front',
    resource_link_title: 'The museum at dusk',
    filename: 'museum-front.jpg',
    alttext: 'The museum’s glass front lit from inside at dusk',
  },
  cmsFileAsset: {
    displaytitle: 'Annual report 2025',
    resource_link_title: 'Download the annual report',
    filename: 'annual-report-2025.pdf',
    alttext: null,
  },
  cmsFlashAsset: {
    displaytitle: 'Intro movie',
    resource_link_title: 'Intro',
    filename: 'intro.swf',
    alttext: 'An animated introduction',
  },
  cmsSimpleTextAsset: { text: 'Closed on 25 December.\nOpen late on Thursdays.' },
  cmsRichTextAsset: { text: html },
  cmsRawHtmlAsset: { html: rawHtml },
  cmsArchiveList: {
    query_site_path: 'demo/news',
    displaytitle: 'News archive',
    archive_page_result: 'demo/news',
    query_published_after: '01/01/2024',
    query_template_list: 'news,article',
    query_published_before: '12/31/2026',
    query_string: query,
    query_title_contains: 'exhibition',
  },
  cmsSimpleAutoList: { displaytitle: 'Latest posts', query, max_results: '10' },
  cmsBlogPostAsset: { displaytitle: 'Behind the scenes', postbody: html, authorname: 'Ada Lovelace' },
  cmsCalendarAsset: {
    calendar_unique_name: 'events-2026',
    calendar_title: 'Events 2026',
    full_calendar_page: 'demo/news',
    calendar_start_date: '2026-01-01 09:00:00.0',
  },
  cmsCategoryList: {
    displaytitle: 'Topics',
    end_date: '12/31/2026',
    title_contains: 'art',
    category_page_result: 'demo/news',
    query,
    page_templates_list: 'article',
    start_date: '01/01/2025',
    site_path: 'demo',
  },
  cmsTagList: {
    displaytitle: 'Tags',
    end_date: '12/31/2026',
    tag_page_result: 'demo/news',
    title_contains: 'art',
    query,
    page_templates_list: 'article',
    start_date: '01/01/2025',
    site_path: 'demo',
  },
  cmsCommentsFormAsset: {
    formdata: comments,
    renderedform: '<form class="comments"><textarea name="comment"></textarea></form>',
  },
  cmsFormAsset: {
    formuniquenamevalidator: 'contact-form',
    formdata: form,
    formtitle: 'Contact us',
    description: 'We answer within two working days.',
    renderedform: '<form class="contact"><input name="name"></form>',
  },
  cmsEventAsset: {
    body: html,
    displaytitle: 'Night at the museum',
    callout: 'Free entry after 6 pm',
    end_time: '2026-06-12 23:00:00.0',
    location: 'Main hall',
    start_time: '2026-06-12 18:00:00.0',
  },
  cmsFileAutoList: {
    asset_library_path: 'Assets/images',
    displaytitle: 'Downloads',
    end_date: '12/31/2026',
    title_contains: 'report',
    query,
    start_date: '01/01/2025',
  },
  cmsImageAutoList: {
    asset_library_path: 'Assets/images',
    displaytitle: 'Gallery',
    end_date: '12/31/2026',
    title_contains: 'museum',
    query,
    start_date: '01/01/2025',
  },
  cmsPageAutoList: {
    displaytitle: 'Recent articles',
    feed_description: 'What is new at the museum.',
    end_date: '12/31/2026',
    title_contains: 'museum',
    query,
    enable_rss_feed: 'true',
    page_templates_list: 'article',
    feed_title: 'Museum news',
    feed_name: 'museum-news',
    start_date: '01/01/2025',
    site_path: 'demo',
  },
  cmsLoginAsset: {
    show_username: 'true',
    password_label: 'Password',
    placeholder: 'you@example.com',
    not_logged_in_message: 'Sign in to see members’ pages.',
    logged_in_message: 'Welcome back!',
    submit_label: 'Sign in',
    email_label: 'E-mail',
  },
  cmsPollAsset: { pollTitle: 'Next exhibition', pollUniqueName: 'next-exhibition', pollQuestion: poll },
  cmsRssAsset: { placeholder: 'Loading the feed…', rss_url: 'https://example.com/news.rss' },
  cmsRegistrationAsset: {
    confirm_password_label: 'Repeat the password',
    password_label: 'Password',
    submit_label: 'Become a member',
    email_label: 'E-mail',
  },
  cmsSecureLogin: {
    buttonLabel: 'Sign in',
    usernameLabel: 'User name',
    passwordLabel: 'Password',
    mainTitle: 'Members only',
  },
};

/** Sample settings of the widgets that keep local fields instead of an asset. */
export const LOCAL_WIDGET_SAMPLES: Partial<Record<WidgetType, FieldValues>> = {
  cmsTitle: { heading_level: 'h2', prefix: 'Exhibition:', suffix: '(2026)' },
  cmsNavon: { layout: 'horizontal', levels: '2' },
  cmsNavTree: { start_level: '1', levels: '3' },
  cmsNavImage: { image_size: 'medium', level: '1' },
};

/** A value of each checked format that the server refuses, for tests of the checks as typed. */
export const INVALID_BY_FORMAT: Partial<Record<FieldFormat, string>> = {
  date: '13/45/2026',
  datetime: '2026-06-12T18:00',
  number: 'ten',
  boolean: 'yes',
  url: 'ftp://example.com/feed',
  json: '{"not": "closed"',
};

/** A field to try an invalid value in, or null when none of its fields has a format the server checks. */
export function invalidCase(defs: readonly FieldDef[]): { def: FieldDef; value: string } | null {
  for (const def of defs) {
    const value = INVALID_BY_FORMAT[def.format];
    if (value !== undefined) return { def, value };
  }
  return null;
}
