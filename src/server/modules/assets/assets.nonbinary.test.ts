import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ASSET_TYPES, type AssetTypeDef, type FieldDef } from '../../../shared/registry/index.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { assetCount, image, metadataOf, pdf, upload } from './assets.fixtures.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const META = '/cms/rest/assets/by-path';
const NON_BINARY: readonly AssetTypeDef[] = ASSET_TYPES.filter((a) => !a.binary);

const put = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.request({ method: 'PUT', url: `${META}/${path}`, payload: body as object, headers });
const read = async (path: string) => metadataOf(await t.request({ method: 'GET', url: `${META}/${path}` }));

/** A valid JSON value for a `json` field, by its type and key (the shapes of interface 2.8). */
function jsonSample(type: string, key: string): string {
  if (key === 'pollQuestion') {
    return JSON.stringify({ question: 'Tea or coffee?', answerType: 'radio', answerChoices: ['Tea', 'Coffee'] });
  }
  if (type === 'cmsFormAsset') return JSON.stringify({ config: { submitLabel: 'Send' }, fields: [{ name: 'email' }] });
  return JSON.stringify({ allowAnonymous: true });
}

/** A valid value for a field, by its format (`variant` makes a second, different one). */
function sample(type: string, f: FieldDef, variant = 0): string {
  switch (f.format) {
    case 'text':
      return f.options ? f.options[variant % f.options.length]! : `${f.label} ${variant}`;
    case 'html':
      return `<p>${f.label} <b>${variant}</b></p>`;
    case 'date':
      return variant ? '12/31/2025' : '03/15/2024';
    case 'datetime':
      return variant ? '2025-12-31 23:59:59.9' : '2024-03-15 09:30:00.0';
    case 'number':
      return variant ? '25' : '10';
    case 'boolean':
      return variant ? 'false' : 'true';
    case 'url':
      return variant ? 'https://example.org/other.xml' : 'https://example.com/feed.xml';
    case 'json':
      return variant ? jsonSample(type, f.key).replace(/}$/, ',"variant":1}') : jsonSample(type, f.key);
  }
}

/** Wrong values per format, each with the message the field error must carry. */
const WRONG: Partial<Record<FieldDef['format'], [string, RegExp][]>> = {
  date: [
    ['2024-03-15', /MM\/DD\/YYYY/],
    ['02/30/2024', /MM\/DD\/YYYY/],
    ['13/01/2024', /MM\/DD\/YYYY/],
  ],
  datetime: [
    ['2024-03-15T09:30:00', /YYYY-MM-DD hh:mm:ss/],
    ['03/15/2024 09:30', /YYYY-MM-DD hh:mm:ss/],
  ],
  number: [['ten', /number/]],
  boolean: [['yes', /"true" or "false"/]],
  url: [
    ['javascript:alert(1)', /http/],
    ['not a url', /http/],
  ],
  json: [['{not json', /valid JSON/]],
};

const allFields = (type: AssetTypeDef, variant = 0) =>
  Object.fromEntries(type.fields.map((f) => [f.key, sample(type.type, f, variant)]));
const requiredFields = (type: AssetTypeDef) =>
  Object.fromEntries(type.fields.filter((f) => f.required).map((f) => [f.key, sample(type.type, f)]));

describe('non-binary assets: guards', () => {
  it('rejects unauthenticated', async () => {
    const res = await put(
      'Assets/t/x',
      { type: 'cmsRawHtmlAsset', fields: { html: '<b>x</b>' } },
      { authorization: '' },
    );
    expect(res.statusCode).toBe(401);
    expect(await assetCount(t)).toBe(0);
  });

  it('rejects an invalid body: no type, an unknown type, a binary type, fields that are not a map', async () => {
    const cases: [unknown, string][] = [
      [{ fields: { html: 'x' } }, 'type'],
      [{ type: 'cmsMysteryAsset', fields: {} }, 'type'],
      [{ type: 'cmsImageAsset', fields: { alttext: 'x' } }, 'type'],
      [{ type: 'cmsRawHtmlAsset', fields: ['x'] }, 'body.fields'],
    ];
    for (const [body, path] of cases) {
      const res = await put('Assets/t/x', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(problemOf(res).errors?.[0]?.path).toBe(path);
    }
    expect(await assetCount(t)).toBe(0);
  });
});

describe('non-binary assets: the 20 types', () => {
  it('has 20 types to test', () => {
    expect(NON_BINARY).toHaveLength(20);
  });

  for (const type of NON_BINARY) {
    it(`creates ${type.type} with its fields and updates part of it`, async () => {
      const path = `Assets/types/${type.type}`;
      const full = allFields(type);
      const created = await put(path, { type: type.type, fields: full });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.headers.location).toBe(`${META}/${path}`);
      const meta = metadataOf(created);
      expect(meta).toMatchObject({ type: type.type, name: type.type, folderPath: 'Assets/types' });
      expect(meta.workflow).toMatchObject({ name: 'Default Workflow', state: 'Draft', checkedOut: false });
      expect(meta.fields).toEqual(full);
      expect(Object.keys(meta.fields)).toEqual(type.fields.map((f) => f.key));
      expect(meta.image ?? meta.file ?? meta.thumbnail).toBeUndefined();

      // Change one field: the rest stays.
      const changed = type.fields[type.fields.length - 1]!;
      const value = sample(type.type, changed, 1);
      expect(value).not.toBe(full[changed.key]);
      const updated = await put(path, { fields: { [changed.key]: value } });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(metadataOf(updated).fields).toEqual({ ...full, [changed.key]: value });
      expect(await read(path)).toEqual(metadataOf(updated));

      // Unset (null) or empty ("") the optional ones: each comes back as it was sent.
      const optional = type.fields.filter((f) => !f.required);
      if (optional.length) {
        const unset = Object.fromEntries(optional.map((f, i) => [f.key, i % 2 ? '' : null]));
        const res = await put(path, { type: type.type, fields: unset });
        expect(res.statusCode, res.body).toBe(200);
        for (const f of type.fields) {
          expect(metadataOf(res).fields[f.key], f.key).toBe(
            f.required ? (f.key === changed.key ? value : full[f.key]) : unset[f.key],
          );
        }
      }
    });

    it(`creates ${type.type} from its required fields only, and refuses it without them`, async () => {
      const required = requiredFields(type);
      const missing = await put(`Assets/min/${type.type}`, { type: type.type, fields: {} });
      if (Object.keys(required).length === 0) {
        expect(missing.statusCode).toBe(201);
        return;
      }
      expect(missing.statusCode).toBe(400);
      expect(
        problemOf(missing)
          .errors!.map((e) => e.path)
          .sort(),
      ).toEqual(
        Object.keys(required)
          .map((k) => `fields.${k}`)
          .sort(),
      );
      expect(await assetCount(t)).toBe(0);
      const res = await put(`Assets/min/${type.type}`, { type: type.type, fields: required });
      expect(res.statusCode, res.body).toBe(201);
      const fields = metadataOf(res).fields;
      for (const f of type.fields) expect(fields[f.key]).toBe(f.required ? required[f.key] : null);
      // A required field cannot be unset later.
      const key = Object.keys(required)[0]!;
      const unset = await put(`Assets/min/${type.type}`, { fields: { [key]: null } });
      expect(unset.statusCode).toBe(400);
      expect(problemOf(unset).errors).toEqual([{ path: `fields.${key}`, message: 'is required and cannot be unset' }]);
    });
  }
});

describe('non-binary assets: formats', () => {
  it('refuses each wrongly formatted value with 400 naming the field, creating nothing', async () => {
    let checked = 0;
    for (const type of NON_BINARY) {
      for (const f of type.fields) {
        for (const [value, message] of WRONG[f.format] ?? []) {
          const fields = { ...requiredFields(type), [f.key]: value };
          const res = await put(`Assets/f/${type.type}`, { type: type.type, fields });
          expect(res.statusCode, `${type.type}.${f.key} = ${value}`).toBe(400);
          const p = problemOf(res);
          expect(p.code).toBe('INVALID_BODY');
          expect(p.errors).toHaveLength(1);
          expect(p.errors![0]!.path).toBe(`fields.${f.key}`);
          expect(p.errors![0]!.message).toMatch(message);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(await assetCount(t)).toBe(0);
  });

  it('refuses JSON fields of the wrong shape', async () => {
    const cases: [string, Record<string, string>, string][] = [
      [
        'cmsPollAsset',
        { pollUniqueName: 'p', pollQuestion: JSON.stringify({ question: 'Q?' }) },
        'fields.pollQuestion',
      ],
      [
        'cmsPollAsset',
        {
          pollUniqueName: 'p',
          pollQuestion: JSON.stringify({ question: 'Q', answerType: 'radio', answerChoices: [1] }),
        },
        'fields.pollQuestion',
      ],
      ['cmsFormAsset', { formtitle: 'F', formdata: JSON.stringify({ config: {} }) }, 'fields.formdata'],
      ['cmsFormAsset', { formtitle: 'F', formdata: '[]' }, 'fields.formdata'],
      ['cmsCommentsFormAsset', { formdata: '"just a string"' }, 'fields.formdata'],
    ];
    for (const [type, fields, path] of cases) {
      const res = await put(`Assets/j/${type}`, { type, fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(problemOf(res).errors?.map((e) => e.path)).toEqual([path]);
      expect(problemOf(res).errors?.[0]?.message).toMatch(/shape/);
    }
  });

  it('refuses non-string values, unknown keys, and a type change; and leaves the asset as it was', async () => {
    await put('Assets/x/list', { type: 'cmsSimpleAutoList', fields: { query: 'type:page', max_results: '10' } });
    const before = await read('Assets/x/list');
    const cases: [unknown, number, string, string?][] = [
      [{ fields: { max_results: 10 } }, 400, 'INVALID_BODY', 'fields.max_results'],
      [{ fields: { displaytitle: true } }, 400, 'INVALID_BODY', 'fields.displaytitle'],
      [{ fields: { feed_title: 'x' } }, 400, 'INVALID_BODY', 'fields.feed_title'],
      [{ type: 'cmsPageAutoList', fields: { query: 'x' } }, 409, 'TYPE_MISMATCH'],
    ];
    for (const [body, status, code, path] of cases) {
      const res = await put('Assets/x/list', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      const p = problemOf(res);
      expect(p.code).toBe(code);
      if (path) expect(p.errors?.[0]?.path).toBe(path);
    }
    expect(await read('Assets/x/list')).toEqual(before);
  });
});

describe('non-binary assets: creation rules', () => {
  it('creates the folders on the way, and refuses a folder or an asset in the way', async () => {
    const res = await put('Assets/new/deep/er/note', { type: 'cmsSimpleTextAsset', fields: { text: 'hi' } });
    expect(res.statusCode).toBe(201);
    expect(metadataOf(res).folderPath).toBe('Assets/new/deep/er');
    const onFolder = await put('Assets/new/deep', { type: 'cmsSimpleTextAsset', fields: { text: 'hi' } });
    expect(onFolder.statusCode).toBe(409);
    expect(problemOf(onFolder).code).toBe('NAME_TAKEN');
    const underAsset = await put('Assets/new/deep/er/note/inner', {
      type: 'cmsSimpleTextAsset',
      fields: { text: 'hi' },
    });
    expect(underAsset.statusCode).toBe(409);
    const withId = await put('Assets/new/other', { id: '1-2-3', type: 'cmsSimpleTextAsset', fields: { text: 'x' } });
    expect(withId.statusCode).toBe(409);
    expect(problemOf(withId).code).toBe('ID_MISMATCH');
    expect(await assetCount(t)).toBe(1);
  });

  it('creates in a workflow state, walking the transitions', async () => {
    const res = await put('Assets/w/rss', {
      type: 'cmsRssAsset',
      fields: { rss_url: 'https://example.com/rss' },
      workflow: { state: 'Public' },
    });
    expect(metadataOf(res).workflow).toMatchObject({ state: 'Public', checkedOut: false });
    const carl = await t.createUser('carl', 'Contributor');
    const refused = await put(
      'Assets/w/rss2',
      { type: 'cmsRssAsset', fields: { rss_url: 'https://example.com/rss' }, workflow: { state: 'Public' } },
      { authorization: carl },
    );
    expect(refused.statusCode).toBe(409);
    expect(problemOf(refused).code).toBe('INVALID_TRANSITION');
    expect(await assetCount(t)).toBe(1);
  });

  it('turns concurrent creates of one path into one create and one update', async () => {
    const bodies = [0, 1, 2].map((i) => ({ type: 'cmsRawHtmlAsset', fields: { html: `<i>${i}</i>` } }));
    const results = await Promise.all(bodies.map((b) => put('Assets/race/html', b)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
    expect(await assetCount(t)).toBe(1);
  });
});

describe('empty strings', () => {
  /** A new asset of `type` at `path`: binary ones uploaded (an image as a PNG), the others created by PUT. */
  async function create(type: AssetTypeDef, path: string) {
    if (!type.binary) return put(path, { type: type.type, fields: requiredFields(type) });
    const assetType = type.type === 'cmsImageAsset' ? 'image' : type.type === 'cmsFlashAsset' ? 'flash' : 'file';
    return upload(t, path, assetType === 'image' ? await image('png', 8, 8) : pdf(), {
      query: `assetType=${assetType}`,
    });
  }

  for (const type of ASSET_TYPES as readonly AssetTypeDef[]) {
    it(`${type.type}: an optional field sent as "" comes back as "" (create and update); a required one is refused`, async () => {
      const optional = type.fields.filter((f) => !f.required);
      const path = `Assets/empty/${type.type}`;
      const created = await create(type, path);
      expect(created.statusCode, created.body).toBe(201);
      expect(metadataOf(created).type).toBe(type.type);
      // A required field is never "" (nor unset): refused rather than changed.
      for (const f of type.fields.filter((x) => x.required)) {
        const refused = await put(path, { fields: { [f.key]: '' } });
        expect(refused.statusCode, f.key).toBe(400);
        expect(problemOf(refused).errors?.map((e) => e.path)).toEqual([`fields.${f.key}`]);
      }
      if (optional.length === 0) return;
      const empty = Object.fromEntries(optional.map((f) => [f.key, '']));
      const filled = await put(path, {
        fields: Object.fromEntries(optional.map((f) => [f.key, sample(type.type, f)])),
      });
      expect(filled.statusCode, filled.body).toBe(200);
      const res = await put(path, { fields: empty });
      expect(res.statusCode, res.body).toBe(200);
      expect(metadataOf(res).fields).toMatchObject(empty);
      expect((await read(path)).fields).toMatchObject(empty);
      if (!type.binary) {
        const fresh = await put(`Assets/empty/new-${type.type}`, {
          type: type.type,
          fields: { ...requiredFields(type), ...empty },
        });
        expect(fresh.statusCode, fresh.body).toBe(201);
        expect(metadataOf(fresh).fields).toMatchObject(empty);
      }
    });
  }
});
