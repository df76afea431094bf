import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AssetMetadata } from '../../../shared/api/assets';
import { assetTypeDef, checkFieldValue, type FieldDef } from '../../../shared/registry';
import { createWebApi } from '../../lib/api';
import { createFakeFetch, json } from '../../test/fake-api';
import { fakeKitServices, renderKitForm } from '../../test/kit';
import { formatFieldDate, formatFieldDateTime, parseFieldDate, parseFieldDateTime } from './date-controls';
import { parseFormData, serializeFormData } from './structured/form-model';
import { parsePoll, serializePoll } from './structured/poll-model';
import { parseSettings, serializeSettings } from './structured/settings-model';
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

describe('dates', () => {
  it('read and write the server’s formats exactly, refusing days that do not exist', () => {
    expect(formatFieldDate(parseFieldDate('02/29/2024')!)).toBe('02/29/2024');
    expect(parseFieldDate('02/30/2024')).toBeNull();
    expect(parseFieldDate('2024-02-01')).toBeNull();
    const dt = parseFieldDateTime('2026-06-12 18:05:09.25')!;
    expect(formatFieldDateTime(dt.value, dt.fraction)).toBe('2026-06-12 18:05:09.25');
    expect(formatFieldDateTime(dt.value)).toBe('2026-06-12 18:05:09.0');
    expect(checkFieldValue(field('cmsEventAsset', 'start_time'), formatFieldDateTime(dt.value))).toBeNull();
    expect(parseFieldDateTime('2026-06-12T18:05')).toBeNull();
  });

  it('shows a stored value it cannot read, keeps it, and clears it only when asked', async () => {
    const user = userEvent.setup();
    const def = field('cmsTagList', 'end_date');
    const { controller } = renderKitForm(api(), [def], { end_date: 'next week' });
    expect(await screen.findByText('“next week” is not a date (MM/DD/YYYY)')).toBeTruthy();
    expect(controller().changes()).toEqual({});
    await user.click(screen.getByRole('button', { name: 'Clear it' }));
    expect(controller().changes()).toEqual({ end_date: null });
  });
});

describe('the form builder', () => {
  const def = field('cmsFormAsset', 'formdata');
  const stored = JSON.stringify({
    config: { submitLabel: 'Send', theme: 'dark' },
    fields: [
      { type: 'text', name: 'name', label: 'Name', required: true, placeholder: 'kept' },
      { type: 'signature', name: 'sig' },
    ],
    extra: 1,
  });

  it('writes back untouched JSON exactly, keeping what it does not know', () => {
    const parsed = parseFormData(stored);
    expect(parsed.ok && serializeFormData(parsed.model)).toBe(stored);
  });

  it('adds a field, names it from its label, and reorders with the keyboard keeping the focus', async () => {
    const user = userEvent.setup();
    const { controller } = renderKitForm(api(), [def], { formdata: stored });
    expect(screen.getByText(/A field this editor does not know/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Add a field/ }));
    const label = await screen.findByRole('textbox', { name: 'Label' });
    await waitFor(() => expect(document.activeElement).toBe(label));
    await user.clear(label);
    await user.type(label, 'Your e-mail');
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveProperty('value', 'your_e_mail');
    const up = screen.getByRole('button', { name: 'Move the field “Your e-mail” up' });
    await user.click(up);
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move the field “Your e-mail” up' })),
    );
    const sent = JSON.parse(controller().changes().formdata!) as { fields: { name?: string }[]; extra: number };
    expect(sent.fields.map((f) => f.name)).toEqual(['name', 'your_e_mail', 'sig']);
    expect(sent.extra).toBe(1);
    expect(checkFieldValue(def, controller().changes().formdata!)).toBeNull();
  });

  it('says when stored form data is not JSON and starts over only when asked', async () => {
    const user = userEvent.setup();
    const { controller } = renderKitForm(api(), [def], { formdata: '{broken' });
    expect(screen.getByText('The stored value is not valid JSON.')).toBeTruthy();
    expect(controller().changes()).toEqual({});
    await user.click(screen.getByRole('button', { name: /Start over/ }));
    expect(JSON.parse(controller().changes().formdata!)).toEqual({ config: {}, fields: [] });
  });
});

describe('the poll editor', () => {
  const def = field('cmsPollAsset', 'pollQuestion');

  it('round-trips a stored poll, keeping an answer type it does not offer', () => {
    const stored = JSON.stringify({ question: 'Q?', answerType: 'ranked', answerChoices: ['a', 'b'], x: true });
    const parsed = parsePoll(stored);
    expect(parsed.ok && serializePoll(parsed.model)).toBe(stored);
  });

  it('adds, reorders and removes answers and checks them as typed', async () => {
    const user = userEvent.setup();
    const stored = JSON.stringify({
      question: 'Tea or coffee?',
      answerType: 'single',
      answerChoices: ['Tea', 'Coffee'],
    });
    const { controller } = renderKitForm(api(), [def], { pollQuestion: stored });
    await user.click(screen.getByRole('button', { name: /Add an answer/ }));
    await user.keyboard('Tea');
    expect(await screen.findByText('Each answer appears once.')).toBeTruthy();
    await user.keyboard('{Backspace}{Backspace}{Backspace}Water');
    await user.click(screen.getByRole('button', { name: 'Move answer 3 (“Water”) up' }));
    await user.click(screen.getByRole('button', { name: 'Remove answer 1 (“Tea”)' }));
    await user.click(screen.getByRole('radio', { name: 'Several answers' }));
    const sent = JSON.parse(controller().changes().pollQuestion!) as { answerChoices: string[]; answerType: string };
    expect(sent).toEqual({ question: 'Tea or coffee?', answerType: 'multiple', answerChoices: ['Water', 'Coffee'] });
  });
});

describe('the settings editor', () => {
  it('keeps each value’s JSON type and nested values as they are', async () => {
    const user = userEvent.setup();
    const def = field('cmsCommentsFormAsset', 'formdata');
    const stored = JSON.stringify({ moderated: true, max: 10, title: 'Hi', nested: { a: [1] } });
    const parsed = parseSettings(stored);
    expect(parsed.ok && serializeSettings(parsed.model)).toBe(stored);
    const { controller } = renderKitForm(api(), [def], { formdata: stored });
    await user.click(screen.getByRole('switch', { name: 'On' }));
    const values = screen.getAllByRole('textbox', { name: 'Value' });
    await user.clear(values[0]!);
    await user.type(values[0]!, '25');
    expect(JSON.parse(controller().changes().formdata!)).toEqual({
      moderated: false,
      max: 25,
      title: 'Hi',
      nested: { a: [1] },
    });
  });
});

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
