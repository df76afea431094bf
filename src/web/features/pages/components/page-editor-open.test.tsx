import 'fake-indexeddb/auto';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Page } from '../../../../shared/api/pages';
import { appDraftStore } from '../../../kit/saving/draft-store';
import { ADMIN_ME, json } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

/**
 * Stored rich text the editor shows differently from how it is written: tiptap would save each of these another
 * way (or cannot hold it at all). Opening the page must not count any of them as a change.
 */
const STORED_HTML: readonly string[] = [
  '<p>Hello<br></p>',
  '<p><b>bold</b> and <i>italic</i> and <strike>gone</strike></p>',
  'Just text with no paragraph',
  '<ul><li>One</li><li>Two</li></ul>',
  '<table><tr><th>Day</th></tr><tr><td>Mon</td></tr></table>',
  '<h2>  Spaced   title  </h2>\n\n<p>Fish &amp; chips&nbsp;&mdash; “quotes”</p>',
  '<p style="color:red;;" class=" a  b ">Styled</p><p><span>plain span</span></p>',
  '<div>text in a div</div>',
  '<p>x<img src="/a.png" onerror="alert(1)"></p>',
  '<script>alert(1)</script><p>after a script</p>',
  '<p data-x="1" foo="bar">unknown attribute</p><!-- a comment -->',
  '<p><a href="/about" hreflang="fr" onclick="steal()">link</a></p>',
  '<p><img src="data:image/png;base64,iVBORw0KGgo=" alt="x"></p>',
];

function pageWith(html: readonly string[]): Page {
  return {
    id: '1-101-9',
    name: `open-${Math.random().toString(36).slice(2, 8)}`,
    siteName: 'demo',
    folderPath: 'about',
    displayName: 'Opened',
    templateName: 'article',
    summary: null,
    overridePostDate: null,
    workflow: { name: 'Default Workflow', state: 'Public', checkedOut: false, checkedOutUser: '' },
    seo: { browserTitle: '', hideSearch: false, tags: [], categories: [], metaDescription: '' },
    calendar: { startDate: null, endDate: null, calendars: null },
    code: {},
    body: [
      {
        name: 'main',
        type: 'PAGE',
        editable: true,
        widgets: html.map((text, i) => ({
          id: `w${i}`,
          type: 'cmsRichText',
          scope: 'local' as const,
          editable: true,
          asset: { fields: { text } },
        })),
      },
    ],
  };
}

/** The editor of a Public page holding `html` in rich text widgets, over a fake server that records requests. */
async function openPage(html: readonly string[]) {
  const page = pageWith(html);
  const path = `/cms/rest/pages/by-path/demo/about/${page.name}`;
  const view = renderApp(`/pages/demo/about/${page.name}`, {
    'GET /cms/rest/auth/me': () => json(ADMIN_ME),
    'GET /cms/rest/sites': () => json([]),
    'GET /cms/rest/templates': () => json([]),
    [`GET ${path}`]: () => json(page, 200, { etag: '"v1"' }),
    [`GET /cms/rest/pages/transitions/demo/about/${page.name}`]: () =>
      json({ state: 'Public', transitions: [{ name: 'Edit', to: 'Quick Edit' }] }),
    [`PUT ${path}`]: () => json(page, 200, { etag: '"v2"' }),
  });
  // The first render of a file loads the editor's lazy code: on a busy machine that alone takes over a second.
  expect(await screen.findByRole('heading', { level: 1, name: 'Opened' }, { timeout: 10_000 })).toBeTruthy();
  // Every rich text field is there: in the HTML view for what the visual editor cannot hold, else as its static
  // view (the page editor mounts tiptap on first use).
  await waitFor(
    () => {
      expect(document.querySelectorAll('.rich-text__frame').length).toBe(html.length);
      // A long page starts with lite cards and draws them whole when idle (regions-view.tsx): all whole now.
      expect(document.querySelectorAll('[data-lite]').length).toBe(0);
      expect(document.querySelectorAll('.rich-text__frame[data-mode="source"] .cm-editor').length).toBe(
        screen.queryAllByText(/This text contains markup the visual editor cannot show/).length,
      );
    },
    { timeout: 10_000 },
  );
  return { ...view, puts: () => view.server.requests.filter((r) => r.method === 'PUT') };
}

/** Past the draft's write delay (400 ms) and tiptap's create timer. */
const pause = (ms = 600) => act(() => new Promise((r) => setTimeout(r, ms)));

describe('opening a page in the editor', () => {
  it('changes nothing: rich text the editor would write differently is not a change, saved or kept', async () => {
    const { user, puts } = await openPage(STORED_HTML);
    expect(
      (await screen.findAllByText(/This text contains markup the visual editor cannot show/, {}, { timeout: 10_000 }))
        .length,
    ).toBeGreaterThan(0);

    // The user goes into each visual editor and out again, typing nothing.
    for (const box of screen.getAllByRole('textbox', { name: 'Text' })) {
      if (box.closest('[hidden]')) continue;
      await user.click(box);
    }
    // Each click made the editor (its toolbar shows): the editors themselves wrote nothing either.
    await waitFor(() =>
      expect(screen.getAllByRole('toolbar', { name: 'Formatting of Text' })).toHaveLength(STORED_HTML.length),
    );
    await user.tab();
    await pause();

    expect(screen.getByText('All changes saved')).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Save/ }).getAttribute('disabled')).not.toBeNull();
    expect(puts()).toEqual([]);
    expect(await appDraftStore().list(ADMIN_ME.username)).toEqual([]);

    // Ctrl+S with nothing changed sends nothing either, like the disabled Save button.
    await user.keyboard('{Control>}s{/Control}');
    await pause(50);
    expect(puts()).toEqual([]);
  });

  it('an edit undone is no change: the stored HTML stays, nothing to save, no draft left', async () => {
    const { user, puts } = await openPage(['<p><b>bold</b> text</p>']);
    // The field is its static view until clicked; the click makes it the editor, which takes the typing.
    await user.click(screen.getByRole('textbox', { name: 'Text' }));
    await screen.findByRole('toolbar', { name: 'Formatting of Text' });
    await user.keyboard('!');
    expect(await screen.findByText(/1 unsaved change/)).toBeTruthy();
    await pause();
    expect(await appDraftStore().list(ADMIN_ME.username)).toHaveLength(1);

    await user.keyboard('{Control>}z{/Control}');
    expect(await screen.findByText('All changes saved')).toBeTruthy();
    await pause();
    expect(await appDraftStore().list(ADMIN_ME.username)).toEqual([]);
    expect(puts()).toEqual([]);
  });
});
