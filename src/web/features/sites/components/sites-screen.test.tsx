import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, problem } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { SitesScreen } from './sites-screen';

const site = (name: string, displayTitle: string) => ({
  id: `1-301-${name.length}`,
  name,
  displayTitle,
  href: `/cms/rest/folders/by-path/${name}`,
});

describe('SitesScreen', () => {
  it('lists the sites by title and narrows them with the filter (accents and case ignored)', async () => {
    const { user } = renderWithProviders(<SitesScreen />, {
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
    renderWithProviders(<SitesScreen />, {
      'GET /cms/rest/sites': () => problem(404, 'NOT_FOUND', 'No route for GET /cms/rest/sites.'),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the sites');
    expect(alert.textContent).toContain('No route for GET /cms/rest/sites.');
    expect(within(alert).getByRole('button', { name: /Try again/ })).toBeTruthy();
  });

  it('says so when there is no site to show', async () => {
    renderWithProviders(<SitesScreen />, { 'GET /cms/rest/sites': () => json([]) });
    expect(await screen.findByText('No sites yet')).toBeTruthy();
  });
});
