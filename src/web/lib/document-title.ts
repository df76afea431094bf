import { useEffect } from 'react';

const APP_NAME = 'Folio';

/** Sets the window title to "<screen> · Folio" while the screen is shown. */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
