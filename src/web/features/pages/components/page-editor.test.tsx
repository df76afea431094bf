import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Page } from '../../../../shared/api/pages';
import { ADMIN_ME, json, problem } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

function pageOf(displayName = 'Team'): Page {
  return {
    id: '1-101-7',
    name: `team-${Math.random().toString(36).slice(2, 8)}`,
    siteName: 'demo',
    folderPath: 'about',
    displayName,
    templateName: 'article',
    summary: null,
    overridePostDate: null,
    workflow: { name: 'Default Workflow', state: 'Draft', checkedOut: false, checkedOutUser: '' },
    seo: { browserTitle: '', hideSearch: false, tags: [], categories: [], metaDescription: '' },
    calendar: { startDate: null, endDate: null, calendars: null },
    code: {},
    body: [
      {
        name: 'title',
        type: 'PAGE',
        editable: true,
        widgets: [
          { id: 'w1', type: 'cmsTitle', scope: 'local', editable: true, asset: { fields: { heading_level: 'h1' } } },
        ],
      },
    ],
  };
}

/**
 * The editor of one page over a fake server that answers GET with ETag "v1" and records the PUTs. bob has the page
 * open; with `bobHolds` he has it checked out (until a takeover).
 */
function renderEditor(put: (etag: string | null, body: unknown) => Response, bobHolds = false) {
  const page = pageOf();
  let theirs: Page | null = null;
  const path = `/cms/rest/pages/by-path/demo/about/${page.name}`;
  const leasePath = `/cms/rest/leases/page/demo/about/${page.name}`;
  const since = '2026-01-02T03:04:05.000Z';
  let held = bobHolds;
  const leaseState = () => ({
    kind: 'page',
    path: `demo/about/${page.name}`,
    id: page.id,
    lease: held ? { username: 'bob', since, expiresAt: since, takenFrom: null } : null,
    mine: false,
    present: [{ username: 'bob', since, editing: held }],
    lastSaved: { by: 'bob', at: since },
  });
  const mine = () => ({
    ...leaseState(),
    lease: { username: 'admin', since, expiresAt: since, takenFrom: 'bob' },
    mine: true,
  });
  const view = renderApp(`/pages/demo/about/${page.name}`, {
    'GET /cms/rest/auth/me': () => json(ADMIN_ME),
    'GET /cms/rest/sites': () => json([]),
    'GET /cms/rest/templates': () => json([]),
    [`GET ${path}`]: () => (theirs ? json(theirs, 200, { etag: '"v2"' }) : json(page, 200, { etag: '"v1"' })),
    [`GET /cms/rest/pages/transitions/demo/about/${page.name}`]: () =>
      json({ state: 'Draft', transitions: [{ name: 'Submit', to: 'Review' }] }),
    [`PUT ${path}`]: (r) => put(r.headers.get('if-match'), r.body),
    [`POST ${leasePath}`]: (r) => {
      if ((r.body as { takeover?: boolean }).takeover) held = false;
      return json((r.body as { mode?: string }).mode === 'edit' && !held ? mine() : leaseState());
    },
    [`GET ${leasePath}`]: () => json(leaseState()),
    [`DELETE ${leasePath}`]: () => json({ ...leaseState(), present: [] }),
  });
  return { ...view, page, setTheirs: (p: Page) => (theirs = p) };
}

describe('the page editor saving', () => {
  it('sends one PUT with If-Match, templateName and only the changed field, on Ctrl+S', async () => {
    const puts: { etag: string | null; body: unknown }[] = [];
    const { user, page } = renderEditor((etag, body) => {
      puts.push({ etag, body });
      return json({ ...page, displayName: 'Our team' }, 200, { etag: '"v2"' });
    });
    // The first render of a file loads the editor's lazy code: on a busy machine that alone takes over a second.
    expect(await screen.findByRole('heading', { level: 1, name: 'Team' }, { timeout: 10_000 })).toBeTruthy();
    // Someone else has it open: said.
    expect(await screen.findByText('bob is viewing')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Properties' }));
    const name = screen.getByLabelText('Display name');
    await user.clear(name);
    await user.type(name, 'Our team');
    expect(screen.getByText(/1 unsaved change/)).toBeTruthy();
    await user.keyboard('{Control>}s{/Control}');

    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({ etag: '"v1"', body: { templateName: 'article', displayName: 'Our team' } });
    expect(await screen.findByText('All changes saved')).toBeTruthy();
    // The first test of the file loads the editor's lazy code: on a busy machine that takes most of the time.
  }, 60_000);

  it('is read-only while bob has the page checked out, until the user takes it over behind a warning', async () => {
    const puts: unknown[] = [];
    const { user, page } = renderEditor((_etag, body) => {
      puts.push(body);
      return json({ ...page, displayName: 'Our team' }, 200, { etag: '"v2"' });
    }, true);
    expect(await screen.findByRole('heading', { level: 1, name: 'Team' }, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByText('bob is editing since', { exact: false })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Properties' }));
    expect((screen.getByLabelText('Display name') as HTMLInputElement).readOnly).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Take over…' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Take over from bob?' });
    expect(confirm.textContent).toContain('they lose their check-out');
    await user.click(within(confirm).getByRole('button', { name: 'Take over' }));
    await waitFor(() => expect(screen.queryByText('bob is editing since', { exact: false })).toBeNull());
    const name = screen.getByLabelText('Display name') as HTMLInputElement;
    expect(name.readOnly).toBe(false);
    await user.clear(name);
    await user.type(name, 'Our team');
    await user.keyboard('{Control>}s{/Control}');
    await waitFor(() => expect(puts).toEqual([{ templateName: 'article', displayName: 'Our team' }]));
  });

  it('on a 412 shows what the other save changed and overwrites only when chosen, with their ETag', async () => {
    const puts: { etag: string | null; body: unknown }[] = [];
    const { user, page, setTheirs } = renderEditor((etag, body) => {
      puts.push({ etag, body });
      if (etag === '"v1"') return problem(412, 'PRECONDITION_FAILED', 'The page changed since you read it.');
      return json({ ...page, displayName: 'Mine' }, 200, { etag: '"v3"' });
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Team' }, { timeout: 10_000 })).toBeTruthy();
    setTheirs({ ...pageOf('Theirs'), name: page.name, summary: 'Their summary' });

    await user.click(screen.getByRole('tab', { name: 'Properties' }));
    const name = screen.getByLabelText('Display name');
    await user.clear(name);
    await user.type(name, 'Mine');
    await user.click(screen.getByRole('button', { name: /^Save/ }));

    // The dialog names who saved (the lease route's lastSaved) and marks the words each side changed.
    const dialog = await screen.findByRole('dialog', { name: /^bob saved this at / });
    const props = await within(dialog).findByRole('region', { name: 'Properties' });
    expect(props.textContent).toContain('Display name');
    expect(props.textContent).toContain('TheirsTeamTheirs');
    expect(props.textContent).toContain('YoursTeamMine');
    expect(props.textContent).toContain('Their summary');
    expect(puts).toHaveLength(1);

    await user.click(within(dialog).getByRole('button', { name: 'Overwrite with mine' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toEqual({ etag: '"v2"', body: { templateName: 'article', displayName: 'Mine' } });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /saved this/ })).toBeNull());
  });
});
