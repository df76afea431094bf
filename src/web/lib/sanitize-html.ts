import DOMPurify from 'dompurify';

/*
 * The one sanitiser of HTML from the server (rich text, raw HTML, rendered forms) wherever the app shows it
 * outside an editor. DOMPurify's defaults, plus: `data-*`, `class`, `id`, `style` stay (they are the content's
 * look); scripts, event handlers, `javascript:`/`data:` script URLs, iframes, objects, forms and <style> blocks go.
 */
const CONFIG = {
  ALLOW_DATA_ATTR: true,
  ADD_ATTR: ['target'],
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
};

/** HTML that is safe to render in the app (see above). */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, CONFIG) as unknown as string;
}
