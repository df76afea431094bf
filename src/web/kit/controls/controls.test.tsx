import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AssetMetadata } from '../../../shared/api/assets';
import { assetTypeDef, type FieldDef } from '../../../shared/registry';
import { createWebApi } from '../../lib/api';
import { createFakeFetch, json } from '../../test/fake-api';
import { fakeKitServices, renderKitForm } from '../../test/kit';
import { checkLinkUrl } from './rich-text/link-url';

const api = () =>
  createWebApi({
    fetch: createFakeFetch({
      'GET /cms/rest/templates': () =>
        json([
          { name: 'article', label: 'Article', description: '', regions: [] },
          { name: 'news', label: 'News', description: '', regions: [] },
        ]),
    }).fetch,
  });

const field = (type: string, key: string): FieldDef => assetTypeDef(type)!.fields.find((f) => f.key === key)!;

describe('paths and templates', () => {
  it('chooses an asset folder in the picker', async () => {
    const user = userEvent.setup();
    const def = field('cmsImageAutoList', 'asset_library_path');
    const { controller } = renderKitForm(
      api(),
      [def],
      { asset_library_path: null },
      {
        services: fakeKitServices({ folder: 'Assets/images' }),
      },
    );
    await user.click(screen.getByRole('button', { name: 'Choose asset folder' }));
    await waitFor(() => expect(controller().changes()).toEqual({ asset_library_path: 'Assets/images' }));
  });

  it('refuses an asset folder path outside the library as typed', async () => {
    const user = userEvent.setup();
    const def = field('cmsImageAutoList', 'asset_library_path');
    renderKitForm(api(), [def], { asset_library_path: null });
    await user.type(screen.getByRole('textbox', { name: /Asset folder/ }), 'images');
    expect(await screen.findByText('An asset folder path starts with “Assets/”.')).toBeTruthy();
  });

  it('edits a template list as tokens, suggesting templates and refusing duplicates', async () => {
    const user = userEvent.setup();
    const def = field('cmsPageAutoList', 'page_templates_list');
    const { controller } = renderKitForm(api(), [def], { page_templates_list: 'article' });
    const input = screen.getByRole('combobox', { name: /Templates/ });
    await user.type(input, 'art{Enter}');
    expect(
      await screen.findByText(
        '“art” is not a template (any more). Only pages made from these templates; none means every template.',
        { exact: false },
      ),
    ).toBeTruthy();
    await user.type(input, 'article{Enter}');
    expect(await screen.findByText('“article” is in the list already.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove art' }));
    await user.clear(input);
    await user.type(input, 'ne');
    await user.click(await screen.findByRole('option', { name: 'news' }));
    expect(controller().changes()).toEqual({ page_templates_list: 'article,news' });
    await user.keyboard('{Backspace}');
    expect(controller().changes()).toEqual({});
  });
});

describe('links in rich text', () => {
  it('accepts web, site, mail and phone addresses and refuses scripts', () => {
    expect(checkLinkUrl('https://example.com/x')).toEqual({ ok: true, url: 'https://example.com/x' });
    expect(checkLinkUrl('example.com/x')).toEqual({ ok: true, url: 'https://example.com/x' });
    expect(checkLinkUrl('/about')).toEqual({ ok: true, url: '/about' });
    expect(checkLinkUrl('mailto:a@b.org').ok).toBe(true);
    expect(checkLinkUrl('tel:+44 20 7946 0000').ok).toBe(true);
    expect(checkLinkUrl('javascript:alert(1)').ok).toBe(false);
    expect(checkLinkUrl('data:text/html,x').ok).toBe(false);
    expect(checkLinkUrl('https://').ok).toBe(false);
  });
});

describe('the rich text control', () => {
  const def = field('cmsRichTextAsset', 'text');

  it('opens HTML it cannot show in the HTML view, saying what it would drop, and sends nothing unchanged', async () => {
    const { controller } = renderKitForm(api(), [def], {
      text: '<p>Watch</p><iframe src="https://v.example/1"></iframe>',
    });
    const note = await screen.findByText(/This text contains markup the visual editor cannot show/, undefined, {
      timeout: 5000,
    });
    expect(note.textContent).toMatch(/<iframe>/);
    expect(screen.getByRole('button', { name: 'HTML view' }).getAttribute('aria-pressed')).toBe('true');
    expect(controller().changes()).toEqual({});
  });

  it('shows HTML it can hold in the visual editor with its toolbar, unchanged until edited', async () => {
    const { controller } = renderKitForm(api(), [def], { text: '<h2>Hi</h2><p class="lead">Text</p>' });
    const toolbar = await screen.findByRole('toolbar', { name: 'Formatting of Text' }, { timeout: 5000 });
    expect(within(toolbar).getByRole('button', { name: 'Bold' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Text' }).innerHTML).toContain('class="lead"');
    expect(controller().changes()).toEqual({});
  });

  it('inserts an image chosen in the asset library with its alt text', async () => {
    const user = userEvent.setup();
    const asset = {
      fields: { alttext: 'A lake at dawn', displaytitle: 'Lake', filename: 'lake.jpg', resource_link_title: null },
      id: '1-401-1',
      name: 'lake.jpg',
      type: 'cmsImageAsset',
      folderPath: 'Assets/images',
      workflow: { name: 'Default Workflow', state: 'Public', checkedOut: false, checkedOutUser: '' },
      lastModifiedDate: '2026-01-01T00:00:00.000+0000',
      createdDate: '2026-01-01T00:00:00.000+0000',
    } as AssetMetadata;
    const { controller } = renderKitForm(
      api(),
      [def],
      { text: '<p>Before</p>' },
      { services: fakeKitServices({ asset }) },
    );
    await user.click(await screen.findByRole('button', { name: 'Image from the asset library' }, { timeout: 5000 }));
    await waitFor(() =>
      expect(controller().changes().text).toContain(
        '<img src="/cms/rest/assets/binary/Assets/images/lake.jpg" alt="A lake at dawn">',
      ),
    );
  });

  it('renders read-only HTML sanitised, without an editor', async () => {
    renderKitForm(
      api(),
      [def],
      {
        text: '<p class="x">Hi<img src="/a.png" onerror="alert(1)"><a href="javascript:alert(3)">x</a><script>alert(2)</script></p>',
      },
      { isReadOnly: true },
    );
    const doc = await screen.findByRole('document', { name: 'Text' }, { timeout: 5000 });
    expect(doc.innerHTML).toContain('<p class="x">Hi<img src="/a.png">');
    expect(doc.innerHTML).not.toMatch(/onerror|script|javascript:/);
    expect(screen.queryByRole('toolbar')).toBeNull();
  });
});
