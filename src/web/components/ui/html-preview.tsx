import { useMemo } from 'react';
import { sanitizeHtml } from '../../lib/sanitize-html';

/** Base styles of the preview document: readable text in the app's theme, images that fit. */
const PREVIEW_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 12px; overflow-wrap: anywhere; }
img { max-width: 100%; height: auto; }
table { border-collapse: collapse; } td, th { border: 1px solid #8888; padding: 4px 8px; }
pre { white-space: pre-wrap; }
`;

/**
 * HTML from the server rendered for reading: sanitised (lib/sanitize-html) and shown in a sandboxed frame that
 * runs no script (the sandbox allows nothing but its own origin, so the service's images load), with its own
 * styles so the content never reaches the app around it.
 */
export function HtmlPreview({
  html,
  title,
  className,
  css = '',
}: {
  html: string;
  /** Styles of the app for the frame (never from the content: the content's <style> is removed). */
  css?: string;
  /** The frame's accessible name ("Preview of the raw HTML"). */
  title: string;
  className?: string;
}) {
  const doc = useMemo(
    () =>
      `<!doctype html><html><head><meta charset="utf-8"><base target="_blank"><style>${PREVIEW_CSS}${css}</style></head><body>${sanitizeHtml(html)}</body></html>`,
    [html, css],
  );
  return (
    <iframe
      className={['html-preview', className ?? ''].filter(Boolean).join(' ')}
      title={title}
      sandbox="allow-same-origin"
      srcDoc={doc}
    />
  );
}
