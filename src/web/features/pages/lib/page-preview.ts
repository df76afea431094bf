import { formatDateTime } from '../../../lib/format';
import type { Page, Widget } from '../../../../shared/api/pages';
import { sharedPath, widgetExcerpt, widgetLabel, type EditorDoc, type Fields } from './editor-doc';

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const binaryUrl = (path: string) => `/cms/rest/assets/binary/${path.split('/').map(encodeURIComponent).join('/')}`;

/** One widget as the page would show it (HTML; the preview frame sanitises it). Lists and forms as a labelled box. */
function widgetHtml(w: { type: string; fields: Fields; shared?: { name: string; folderPath: string } }, title: string) {
  const f = w.fields;
  switch (w.type) {
    case 'cmsRichText':
    case 'cmsSimpleText':
      return f.text ?? '';
    case 'cmsRawHtml':
      return f.html ?? '';
    case 'cmsTitle': {
      const level = /^h[1-6]$/.test(f.heading_level ?? '') ? f.heading_level! : 'h1';
      return `<${level}>${escapeHtml(`${f.prefix ?? ''}${title}${f.suffix ?? ''}`)}</${level}>`;
    }
    case 'cmsImage':
      return w.shared
        ? `<img src="${escapeHtml(binaryUrl(sharedPath(w.shared)))}" alt="${escapeHtml(f.alttext ?? '')}">`
        : '';
    case 'cmsBlogPost':
      return `<h2>${escapeHtml(f.displaytitle ?? '')}</h2>${f.postbody ?? ''}<p><em>${escapeHtml(f.authorname ?? '')}</em></p>`;
    case 'cmsEvent':
      return `<h3>${escapeHtml(f.displaytitle ?? '')}</h3><p>${escapeHtml([f.start_time && formatDateTime(f.start_time), f.location].filter(Boolean).join(' · '))}</p>${f.body ?? ''}`;
    default:
      return `<div class="placeholder">${escapeHtml(widgetLabel(w.type))}: ${escapeHtml(widgetExcerpt(w))}</div>`;
  }
}

const templateWidget = (w: Widget) => ({ type: w.type, fields: w.asset.fields });

/**
 * The page as HTML for the preview: every region in template order, the template's widgets and the edited
 * widgets, each region labelled. Rendered through `HtmlPreview` (sanitised, in a sandboxed frame).
 */
export function pagePreviewHtml(base: Page, doc: EditorDoc): string {
  const title = doc.props.displayName || base.name;
  const parts = base.body.map((region) => {
    const widgets = region.editable ? (doc.regions[region.name] ?? []) : region.widgets.map(templateWidget);
    const inner = widgets.map((w) => `<div class="widget">${widgetHtml(w, title)}</div>`).join('');
    return `<section class="region" data-region="${escapeHtml(region.name)}"><p class="region-name">${escapeHtml(region.name)}</p>${inner || '<p class="empty">(empty)</p>'}</section>`;
  });
  return parts.join('');
}

/** The preview's own styles (the app's, not the content's: given to the frame apart from the sanitised HTML). */
export const PAGE_PREVIEW_CSS =
  '.region{border:1px dashed #8886;border-radius:6px;padding:8px 12px;margin:0 0 12px}' +
  '.region-name{font:600 11px system-ui;text-transform:uppercase;letter-spacing:.05em;opacity:.7;margin:0 0 4px}' +
  '.placeholder{border:1px solid #8886;border-radius:4px;padding:8px;opacity:.8}.empty{opacity:.6}';
