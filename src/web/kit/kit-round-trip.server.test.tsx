import { act } from '@testing-library/react';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createClient, type Client } from '../../shared/api/client';
import { ASSET_TYPES, WIDGET_TYPES, widgetContentFields, type FieldDef } from '../../shared/registry';
import type { WebApi } from '../lib/api';
import { renderKitForm } from '../test/kit';
import type { FieldValues } from './fields-form';
import { ASSET_SAMPLES, LOCAL_WIDGET_SAMPLES } from './samples';

/*
 * Every one of the 47 types through the real server: the kit's form is filled with the samples, what it would
 * send is PUT through the typed client, the answer is read back with GET, and a fresh form built from that
 * answer shows exactly the values that were filled in.
 */

let api: WebApi;

function mountForm(defs: readonly FieldDef[], initial: FieldValues, creating = false) {
  const { unmount, controller } = renderKitForm(api, defs, initial, { creating });
  return { view: { unmount }, controller };
}

/** Fills an empty form field by field, as each control's onChange does, and answers what it would send. */
function fill(defs: readonly FieldDef[], sample: FieldValues): FieldValues {
  const { view, controller } = mountForm(defs, {}, true);
  act(() => {
    for (const [key, value] of Object.entries(sample)) {
      if (value !== null) controller().form.setValue(key, value, { shouldDirty: true, shouldValidate: true });
    }
  });
  const sent = controller().values();
  view.unmount();
  return sent;
}

/** What a form built from the server's answer shows. */
function readBack(defs: readonly FieldDef[], fields: FieldValues): FieldValues {
  const { view, controller } = mountForm(defs, fields);
  const shown = controller().form.getValues();
  expect(controller().changes()).toEqual({});
  view.unmount();
  return shown;
}

const set = (sample: FieldValues) => Object.fromEntries(Object.entries(sample).filter(([, v]) => v !== null));

let client: Client;

beforeAll(async () => {
  client = createClient({
    baseUrl: inject('folioServerUrl'),
    basicAuth: { username: 'admin', password: inject('folioAdminPassword') },
  });
  // The forms read templates and folders through the same client (Basic, not a cookie session).
  api = {
    client,
    setCsrfToken: () => {},
    csrfToken: () => undefined,
    reportUnauthorized: () => {},
    onUnauthorized: () => () => {},
  };
  await client.templates.put('kit-round-trip', {
    label: 'Kit round trip',
    regions: [{ name: 'main', editable: true }],
  });
  await client.folders.put(['kit'], { siteName: 'kit', sectionInfo: { templateName: 'kit-round-trip' } });
  await client.folders.put(['Assets', 'kit'], {});
});

describe('the form of every widget type round-trips through the server', () => {
  it.each(WIDGET_TYPES.map((w) => [w.type, w] as const))('%s', async (type, w) => {
    const defs = widgetContentFields(type);
    const sample = w.assetType ? ASSET_SAMPLES[w.assetType] : LOCAL_WIDGET_SAMPLES[type]!;
    const sent = fill(defs, sample);
    expect(sent).toEqual(set(sample));
    const segments = ['kit', `page-${type}`];
    await client.pages.put(segments, {
      templateName: 'kit-round-trip',
      body: [{ name: 'main', widgets: [{ type, asset: { fields: sent } }] }],
    });
    const { data: page } = await client.pages.get(segments);
    const widget = page.body.find((r) => r.name === 'main')!.widgets[0]!;
    expect(widget.type).toBe(type);
    const shown = readBack(defs, widget.asset.fields);
    expect(set(shown)).toEqual(set(sample));
  });
});

describe('the form of every non-binary asset type round-trips through the server', () => {
  it.each(ASSET_TYPES.filter((a) => !a.binary).map((a) => [a.type, a] as const))('%s', async (type, a) => {
    const sample = ASSET_SAMPLES[type];
    const sent = fill(a.fields, sample);
    expect(sent).toEqual(set(sample));
    const segments = ['Assets', 'kit', `asset-${type}`];
    await client.assets.put(segments, { type, fields: sent });
    const { data: asset } = await client.assets.get(segments);
    expect(asset.type).toBe(type);
    const shown = readBack(a.fields, asset.fields);
    expect(set(shown)).toEqual(set(sample));
  });
});
