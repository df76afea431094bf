import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ASSET_TYPES, validateFields, WIDGET_TYPES, widgetContentFields, type FieldDef } from '../../shared/registry';
import { createWebApi } from '../lib/api';
import { createFakeFetch, json } from '../test/fake-api';
import { renderKitForm } from '../test/kit';
import type { FieldValues } from './fields-form';
import { ASSET_SAMPLES, invalidCase, LOCAL_WIDGET_SAMPLES } from './samples';

/** The fake server of these tests: templates and the folders the samples name. */
function kitApi() {
  const { fetch } = createFakeFetch({
    'GET /cms/rest/templates': () =>
      json([
        { name: 'article', label: 'Article', description: '', regions: [] },
        { name: 'news', label: 'News', description: '', regions: [] },
      ]),
    'GET /cms/rest/folders/by-path/demo': () => json(folderJson('demo')),
    'GET /cms/rest/folders/by-path/demo/news': () => json(folderJson('demo/news')),
    'GET /cms/rest/folders/by-path/Assets/images': () => json(folderJson('Assets/images')),
  });
  return createWebApi({ fetch });
}

function folderJson(path: string) {
  const [site, ...rest] = path.split('/');
  return {
    id: '1-301-1',
    name: rest[rest.length - 1] ?? '',
    siteName: site,
    path: rest.slice(0, -1).join('/'),
    workflow: '[default]',
    accessLevel: 'ADMIN',
    ...(site === 'Assets'
      ? { assets: [] }
      : { sectionInfo: { displayTitle: path, targetWindow: '_self', navClass: '' } }),
  };
}

function renderForm(defs: readonly FieldDef[], initial: FieldValues, creating = false) {
  return renderKitForm(kitApi(), defs, initial, { creating });
}

const nonBinary = ASSET_TYPES.filter((a) => !a.binary);
const cases: { name: string; defs: readonly FieldDef[]; sample: FieldValues }[] = [
  ...WIDGET_TYPES.map((w) => ({
    name: `widget ${w.type}`,
    defs: widgetContentFields(w.type),
    sample: w.assetType ? ASSET_SAMPLES[w.assetType] : LOCAL_WIDGET_SAMPLES[w.type]!,
  })),
  ...nonBinary.map((a) => ({ name: `asset ${a.type}`, defs: a.fields, sample: ASSET_SAMPLES[a.type] })),
];

describe('the form of every widget and asset type', () => {
  it('covers the 27 widget types and 20 non-binary asset types, each with samples for every field', () => {
    expect(cases).toHaveLength(47);
    for (const c of cases) expect(Object.keys(c.sample).sort(), c.name).toEqual(c.defs.map((d) => d.key).sort());
  });

  it.each(cases)('$name: shows every field and sends back exactly the samples, which the server accepts', async (c) => {
    const { controller } = renderForm(c.defs, c.sample);
    for (const def of c.defs) {
      expect(document.querySelector(`[data-field="${def.key}"]`), def.key).not.toBeNull();
    }
    expect(await screen.findAllByText(c.defs[0]!.label, { exact: false })).not.toHaveLength(0);
    const values = controller().values();
    expect(validateFields(c.defs, values, true)).toEqual([]);
    for (const [key, value] of Object.entries(c.sample)) if (value !== null) expect(values[key], key).toBe(value);
    // Nothing changed yet: an update would send nothing.
    expect(controller().changes()).toEqual({});
    expect(controller().isDirty).toBe(false);
  });

  it.each(cases.filter((c) => invalidCase(c.defs)))(
    '$name: shows the server’s message for an invalid value',
    async (c) => {
      const { def, value } = invalidCase(c.defs)!;
      const { controller } = renderForm(c.defs, c.sample);
      act(() => controller().form.setValue(def.key, value, { shouldValidate: true, shouldDirty: true }));
      const field = document.querySelector(`[data-field="${def.key}"]`)!;
      await waitFor(() => expect(field.textContent).toMatch(new RegExp(`${def.label} must`)));
      expect(controller().changes()).toEqual({ [def.key]: value });
    },
  );
});

describe('FieldsForm', () => {
  const rss = ASSET_TYPES.find((a) => a.type === 'cmsRssAsset')!.fields;

  it('checks as the user types and sends only the fields that changed', async () => {
    const user = userEvent.setup();
    const { controller } = renderForm(rss, { placeholder: 'Loading', rss_url: 'https://example.com/a.rss' });
    const url = screen.getByRole('textbox', { name: /Feed address/ });
    await user.clear(url);
    await user.type(url, 'example.com');
    expect(
      await screen.findByText('Feed address must be a web address starting with https:// or http://.'),
    ).toBeTruthy();
    await user.clear(url);
    await user.type(url, 'https://example.org/b.rss');
    await waitFor(() => expect(screen.queryByText(/Feed address must/)).toBeNull());
    expect(controller().changes()).toEqual({ rss_url: 'https://example.org/b.rss' });
    expect(controller().isDirty).toBe(true);
  });

  it('tells its listener there is no change left once reset to the values just saved', async () => {
    const user = userEvent.setup();
    const heard: FieldValues[] = [];
    const { controller } = renderKitForm(
      kitApi(),
      rss,
      { placeholder: 'Loading', rss_url: 'https://example.com/a.rss' },
      { onValuesChange: (changes) => heard.push(changes) },
    );
    await user.type(screen.getByRole('textbox', { name: /Text while the feed loads/ }), '…');
    expect(heard.at(-1)).toEqual({ placeholder: 'Loading…' });
    // Saved: the form starts again from what the server now holds.
    act(() => controller().reset({ placeholder: 'Loading…', rss_url: 'https://example.com/a.rss' }));
    expect(heard.at(-1)).toEqual({});
    expect(controller().changes()).toEqual({});
    expect(controller().isDirty).toBe(false);
  });

  it('requires the required fields of a new asset, and focuses the first one left empty', async () => {
    const { controller } = renderForm(rss, {}, true);
    let valid = true;
    await act(async () => {
      valid = await controller().validate();
    });
    expect(valid).toBe(false);
    expect(await screen.findByText('Feed address is required.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /Feed address/ }));
  });

  it('keeps a required field that holds a value from being emptied, but leaves an empty one alone when editing', async () => {
    const user = userEvent.setup();
    renderForm(rss, { placeholder: null, rss_url: 'https://example.com/a.rss' });
    await user.clear(screen.getByRole('textbox', { name: /Feed address/ }));
    expect(await screen.findByText('Feed address is required.')).toBeTruthy();
  });

  it('puts a 400’s field errors on the fields they name and answers the others', async () => {
    const { controller } = renderForm(rss, { placeholder: 'x', rss_url: 'https://example.com/a.rss' });
    let rest: unknown;
    act(() => {
      rest = controller().showServerErrors(
        [
          { path: 'fields.rss_url', message: 'is not reachable' },
          { path: 'type', message: 'cannot change' },
        ],
        'fields.',
      );
    });
    expect(await screen.findByText('Feed address is not reachable.')).toBeTruthy();
    expect(rest).toEqual([{ path: 'type', message: 'cannot change' }]);
  });

  it('treats an emptied optional field as unset, and a server "" as the same as null', async () => {
    const user = userEvent.setup();
    const { controller } = renderForm(rss, { placeholder: '', rss_url: 'https://example.com/a.rss' });
    const placeholder = screen.getByRole('textbox', { name: /Text while the feed loads/ });
    await user.type(placeholder, 'Hi');
    expect(controller().changes()).toEqual({ placeholder: 'Hi' });
    await user.clear(placeholder);
    expect(controller().changes()).toEqual({});
  });

  it('offers a choice among fixed options, with "Not set" for an optional one', async () => {
    const user = userEvent.setup();
    const title = WIDGET_TYPES.find((w) => w.type === 'cmsTitle')!.localFields!;
    const { controller } = renderForm(title, { heading_level: 'h2' });
    await user.click(screen.getByRole('button', { name: /Heading level/ }));
    await user.click(await screen.findByRole('option', { name: 'h3' }));
    expect(controller().changes()).toEqual({ heading_level: 'h3' });
    await user.click(screen.getByRole('button', { name: /Heading level/ }));
    await user.click(await screen.findByRole('option', { name: 'Not set' }));
    expect(controller().changes()).toEqual({ heading_level: null });
  });

  it('switches a boolean field between "true" and "false"', async () => {
    const user = userEvent.setup();
    const login = ASSET_TYPES.find((a) => a.type === 'cmsLoginAsset')!.fields;
    const { controller } = renderForm(login, { submit_label: 'Go', show_username: null });
    const toggle = screen.getByRole('switch', { name: 'Show user name' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    await user.click(toggle);
    expect(controller().changes()).toEqual({ show_username: 'true' });
    await user.click(toggle);
    expect(controller().changes()).toEqual({ show_username: 'false' });
  });

  it('steps a number with the arrow keys and keeps what was typed as it was written', async () => {
    const user = userEvent.setup();
    const list = ASSET_TYPES.find((a) => a.type === 'cmsSimpleAutoList')!.fields;
    const { controller } = renderForm(list, { query: 'q', max_results: '10' });
    const n = screen.getByRole('textbox', { name: /Maximum results/ });
    await user.click(n);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(controller().changes()).toEqual({ max_results: '12' });
    await user.clear(n);
    await user.type(n, '2.50');
    expect(controller().changes()).toEqual({ max_results: '2.50' });
  });
});
