import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, problem } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { SitesScreen } from './sites-screen';

const hrefOf = (name: string) => `/sites/${name}`;

/** One id per site name, as the server gives (React keys the cards by id). */
const ids = new Map<string, string>();
const idOf = (name: string) => ids.get(name) ?? ids.set(name, `1-301-${100 + ids.size}`).get(name)!;

const site = (name: string, displayTitle: string) => ({
  id: idOf(name),
  name,
  displayTitle,
  href: `/cms/rest/folders/by-path/${name}`,
});

describe('SitesScreen', () => {
  it('lists the sites by title and narrows them with the filter (accents and case ignored)', async () => {
    const { user } = renderWithProviders(<SitesScreen siteHref={hrefOf} />, {
      'GET /cms/rest/sites': () =>
        json([site('news', 'Newsroom'), site('demo', 'Démo site'), site('intranet', 'Intranet')]),
    });
    const list = await screen.findByRole('list', { name: 'Sites' });
    expect(
      within(list)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Démo site', 'Intranet', 'Newsroom']);
    expect(screen.getByText('3 sites')).toBeTruthy();

    await user.type(screen.getByRole('searchbox', { name: 'Filter sites' }), 'DEMO');
    expect(await screen.findByText('1 of 3 sites')).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Sites' }))
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Démo site']);

    await user.keyboard('{Escape}');
    expect(await screen.findByText('3 sites')).toBeTruthy();
  });

  it('shows a failing or missing sites route as an error state with a retry, not a crash', async () => {
    renderWithProviders(<SitesScreen siteHref={hrefOf} />, {
      'GET /cms/rest/sites': () => problem(404, 'NOT_FOUND', 'No route for GET /cms/rest/sites.'),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the sites');
    expect(alert.textContent).toContain('No route for GET /cms/rest/sites.');
    expect(within(alert).getByRole('button', { name: /Try again/ })).toBeTruthy();
  });

  it('says so when there is no site to show', async () => {
    renderWithProviders(<SitesScreen siteHref={hrefOf} />, { 'GET /cms/rest/sites': () => json([]) });
    expect(await screen.findByText('No sites yet')).toBeTruthy();
    expect(screen.getByText(/Ask an admin to create one/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New site' })).toBeNull();
  });

  it('opens a site from its card', async () => {
    renderWithProviders(<SitesScreen siteHref={hrefOf} />, {
      'GET /cms/rest/sites': () => json([site('demo', 'Demo site')]),
    });
    const link = await screen.findByRole('link', { name: 'Demo site' });
    expect(link.getAttribute('href')).toBe('/sites/demo');
  });

  it('lets an admin create a site: title, a name suggested from it, the home page template', async () => {
    const onSiteCreated = vi.fn();
    const { user, server } = renderWithProviders(
      <SitesScreen siteHref={hrefOf} canCreateSites onSiteCreated={onSiteCreated} />,
      {
        'GET /cms/rest/sites': () => json([site('demo', 'Demo site')]),
        'GET /cms/rest/templates': () =>
          json([
            { name: 'home', label: 'Home page', description: 'Hero and news', regions: [] },
            { name: 'article', label: 'Article', description: 'Title and body', regions: [] },
          ]),
        'PUT /cms/rest/folders/by-path/demo': () =>
          problem(412, 'PRECONDITION_FAILED', 'Something is there already (If-None-Match).'),
        'PUT /cms/rest/folders/by-path/intranet': () =>
          json(
            {
              id: '1-301-9',
              name: '',
              siteName: 'intranet',
              path: '',
              workflow: '[default]',
              accessLevel: 'ADMIN',
              sectionInfo: { displayTitle: 'Intranet', targetWindow: '_self', navClass: '', templateName: 'article' },
            },
            201,
          ),
      },
    );
    await user.click(await screen.findByRole('button', { name: 'New site' }));
    const dialog = await screen.findByRole('dialog', { name: 'New site' });
    // Nothing is sent while the form is incomplete.
    await user.click(within(dialog).getByRole('button', { name: 'Create site' }));
    expect(await within(dialog).findByText('Enter the display title.')).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox', { name: 'Display title' }), 'Demo');
    expect((within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('demo');
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: /Home page template/ }).textContent).toContain('Home page'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create site' }));
    // A taken name is refused on the name field, not overwritten.
    expect(await within(dialog).findByText('The name is taken by another site.')).toBeTruthy();

    await user.clear(within(dialog).getByRole('textbox', { name: 'Display title' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Display title' }), 'Intranet');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Name' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'intranet');
    await user.click(within(dialog).getByRole('button', { name: /Home page template/ }));
    await user.click(await screen.findByRole('option', { name: /Article/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create site' }));
    await waitFor(() => expect(onSiteCreated).toHaveBeenCalledWith('intranet'));
    const put = server.requests.find((r) => r.method === 'PUT' && r.path.endsWith('/intranet'))!;
    expect(put.body).toEqual({
      siteName: 'intranet',
      sectionInfo: { displayTitle: 'Intranet', templateName: 'article' },
    });
    expect(put.headers.get('if-none-match')).toBe('*');
  });

  it('offers no "New site" to anyone but admins', async () => {
    renderWithProviders(<SitesScreen siteHref={hrefOf} />, {
      'GET /cms/rest/sites': () => json([site('demo', 'Demo site')]),
    });
    await screen.findByRole('link', { name: 'Demo site' });
    expect(screen.queryByRole('button', { name: 'New site' })).toBeNull();
  });
});
