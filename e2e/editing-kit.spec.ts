import AxeBuilder from '@axe-core/playwright';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN_AUTHORIZATION } from './support/users';

/*
 * The editing kit in its gallery (/kit), used the way an editor uses the page editor and the asset library:
 * with the mouse and the keyboard, in real Chromium. What each form would send is then given to the real server,
 * which must accept it and answer it back unchanged.
 */

/** Serious and critical WCAG 2.1 A/AA violations on the page (or inside `selector`) as it is now, listed readably. */
async function seriousViolations(page: Page, selector?: string) {
  const axe = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const results = await (selector ? axe.include(selector) : axe).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** What the gallery says the form sends when creating: every field that is set. */
async function formValues(page: Page): Promise<Record<string, string>> {
  return JSON.parse((await page.getByTestId('kit-values').textContent()) ?? '{}') as Record<string, string>;
}

/** A Basic-authenticated client of the e2e server (scripts and other tools call the API this way). */
async function apiClient(baseURL: string | undefined): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: ADMIN_AUTHORIZATION },
  });
}

/** Creates a non-binary asset from what a form sends, reads it back, and answers the fields the server keeps. */
async function createAndReadBack(api: APIRequestContext, name: string, type: string, fields: Record<string, string>) {
  await api.put('/cms/rest/folders/by-path/Assets/kit-e2e', { data: {} });
  const put = await api.put(`/cms/rest/assets/by-path/Assets/kit-e2e/${name}`, { data: { type, fields } });
  expect(put.status(), await put.text()).toBeLessThan(300);
  const got = await api.get(`/cms/rest/assets/by-path/Assets/kit-e2e/${name}`);
  expect(got.status()).toBe(200);
  return ((await got.json()) as { fields: Record<string, string | null> }).fields;
}

test.describe('the editing kit', () => {
  test('an editor writes rich text with a heading, a link, a table and a library image, and the server keeps it as written', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await page.goto('/kit/widgets/cmsRichText');
    await page.getByRole('button', { name: 'Start empty (as a new asset)' }).click();
    // The form is made anew, empty: type only once it is there (typing sooner went into the samples' editor).
    await expect(page.getByRole('button', { name: 'Fill with samples' })).toBeVisible();
    const text = page.getByRole('textbox', { name: 'Text' });
    await expect(text).toBeVisible();

    // A heading, typed, then made a heading from the toolbar's style menu.
    await text.click();
    await page.keyboard.type('Visiting hours');
    await page.getByRole('button', { name: 'Text style' }).click();
    await page.getByRole('option', { name: 'Heading 2' }).click();
    await expect(text.locator('h2')).toHaveText('Visiting hours');

    // A paragraph with a link made with Ctrl+K on the selected words, opening in a new tab.
    await text.click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Plan your visit');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.press('Control+k');
    const linkDialog = page.getByRole('dialog', { name: 'Add a link' });
    await expect(linkDialog).toBeVisible();
    // A bad address is refused at the field, before anything is added.
    await linkDialog.getByLabel('Address').fill('javascript:alert(1)');
    await linkDialog.getByRole('button', { name: 'Add link' }).click();
    await expect(linkDialog).toBeVisible();
    await linkDialog.getByLabel('Address').fill('https://example.org/visit');
    await linkDialog.getByText('Open in a new tab').click();
    await linkDialog.getByRole('button', { name: 'Add link' }).click();
    await expect(linkDialog).toBeHidden();
    await expect(text.getByRole('link', { name: 'Plan your visit' })).toHaveAttribute(
      'href',
      'https://example.org/visit',
    );

    // The cursor is after the link, and what is typed there is not part of it.
    await expect(text).toBeFocused();
    await page.keyboard.type(' today');
    await expect(text.locator('p').filter({ hasText: 'Plan your visit' })).toHaveText('Plan your visit today');
    await expect(text.getByRole('link')).toHaveText('Plan your visit');

    // Bold from the keyboard.
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('Closed on Mondays');
    await page.keyboard.press('Control+b');
    await expect(text.locator('strong')).toHaveText('Closed on Mondays');

    // A table from the toolbar's table menu, with text in its first cell.
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Table', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Insert a table' }).click();
    await expect(text.locator('table')).toBeVisible();
    await page.keyboard.type('Day');
    await expect(text.locator('table th, table td').first()).toHaveText('Day');

    // An image picked from the asset library: its address is the asset's file, its alt text the asset's own.
    await page.getByRole('button', { name: 'Image from the asset library' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose an image' });
    await expect(picker).toBeVisible();
    await picker.getByRole('row', { name: /^hero\.jpg, Image/ }).click();
    await expect(picker).toContainText('Alt: “Green hills under a blue sky”');
    await picker.getByRole('button', { name: 'Choose', exact: true }).click();
    await expect(picker).toBeHidden();
    const image = text.getByRole('img', { name: 'Green hills under a blue sky' });
    await expect(image).toHaveAttribute('alt', 'Green hills under a blue sky');
    await expect(image).toHaveAttribute('src', /\/cms\/rest\/assets\/binary\/Assets\/images\/hero\.jpg$/);

    // What the form sends holds all of it …
    const values = await formValues(page);
    const html = values.text ?? '';
    expect(html).toContain('<h2>Visiting hours</h2>');
    expect(html).toMatch(/<a [^>]*href="https:\/\/example\.org\/visit"[^>]*>Plan your visit<\/a>/);
    expect(html).toMatch(/<a [^>]*target="_blank"/);
    expect(html).toContain('<strong>Closed on Mondays</strong>');
    expect(html).toMatch(/<table[\s>]/);
    expect(html).toMatch(/<img [^>]*alt="Green hills under a blue sky"/);

    // … and the server accepts it and answers it back exactly as sent.
    const api = await apiClient(baseURL);
    const kept = await createAndReadBack(api, 'visiting-hours', 'cmsRichTextAsset', values);
    expect(kept.text).toBe(html);
    await api.dispose();

    expect(await seriousViolations(page)).toEqual([]);
  });

  test('an editor builds a form with three fields, and the server accepts it', async ({ page, baseURL }) => {
    test.setTimeout(90_000);
    await page.goto('/kit/widgets/cmsForm');
    await page.getByRole('button', { name: 'Start empty (as a new asset)' }).click();
    await expect(page.getByRole('button', { name: 'Fill with samples' })).toBeVisible();

    await page.getByLabel('Unique name').fill('tour-booking');
    await page.getByLabel('Form title').fill('Book a tour');

    const addField = async (type: string, label: string) => {
      await page.getByRole('button', { name: 'Add field' }).click();
      await page.getByRole('menuitem', { name: new RegExp(`^${type}`) }).click();
      // The new field's card opens with its label focused.
      const labelInput = page.getByRole('textbox', { name: 'Label' }).last();
      await expect(labelInput).toBeFocused();
      await labelInput.fill(label);
    };
    await addField('Short text', 'Your name');
    await addField('E-mail', 'E-mail address');
    await addField('Drop-down', 'Preferred day');
    // The drop-down needs options: fill the first two.
    await page.getByRole('textbox', { name: 'Option 1' }).last().fill('Saturday');
    await page.getByRole('button', { name: 'Add option' }).click();
    await expect(page.getByRole('textbox', { name: 'Option 2' }).last()).toBeFocused();
    await page.getByRole('textbox', { name: 'Option 2' }).last().fill('Sunday');

    // Reorder from the keyboard: the e-mail field moves above the name.
    await page.getByRole('button', { name: 'Move “E-mail address” up' }).focus();
    await page.keyboard.press('Enter');

    const values = await formValues(page);
    const data = JSON.parse(values.formdata ?? '{}') as { fields: { label: string; type: string; name: string }[] };
    expect(data.fields.map((f) => [f.label, f.type])).toEqual([
      ['E-mail address', 'email'],
      ['Your name', 'text'],
      ['Preferred day', 'select'],
    ]);
    expect(data.fields.every((f) => f.name.length > 0)).toBe(true);

    // The preview shows the form as visitors will see it.
    await page.getByRole('tablist', { name: 'Form data: view' }).getByRole('tab', { name: 'Preview' }).click();
    await expect(page.getByRole('combobox', { name: /Preferred day/ })).toBeVisible();

    const api = await apiClient(baseURL);
    const kept = await createAndReadBack(api, 'tour-booking', 'cmsFormAsset', values);
    expect(kept.formdata).toBe(values.formdata);
    await api.dispose();

    expect(await seriousViolations(page)).toEqual([]);
  });

  test('an editor builds a poll with several answers, and the server accepts it', async ({ page, baseURL }) => {
    test.setTimeout(90_000);
    await page.goto('/kit/widgets/cmsPoll');
    await page.getByRole('button', { name: 'Start empty (as a new asset)' }).click();
    await expect(page.getByRole('button', { name: 'Fill with samples' })).toBeVisible();

    await page.getByLabel('Unique name').fill('exhibitions');
    await page.getByLabel('Question text').fill('Which exhibitions did you see?');
    await page.getByRole('button', { name: /Visitors may give/ }).click();
    await page.getByRole('option', { name: /Several answers/ }).click();
    // A new poll starts with two empty choices.
    await page.getByRole('textbox', { name: 'Choice 1' }).fill('Modern art');
    await page.getByRole('textbox', { name: 'Choice 2' }).fill('Old masters');
    // Each "Add choice" adds one and puts the cursor in it, also when the one before was left empty (its error
    // appears below it, and must not push the button away from under the second click).
    await page.getByRole('button', { name: 'Add choice' }).click();
    await expect(page.getByRole('textbox', { name: 'Choice 3' })).toBeFocused();
    await page.getByRole('button', { name: 'Add choice' }).click();
    await expect(page.getByRole('textbox', { name: 'Choice 4' })).toBeFocused();
    await page.getByRole('textbox', { name: 'Choice 3' }).fill('Photography');
    await page.getByRole('button', { name: 'Remove choice 4' }).click();
    await expect(page.getByRole('textbox', { name: 'Choice 4' })).toHaveCount(0);
    // Photography moves to the top, and Old masters is removed.
    await page.getByRole('button', { name: 'Move “Photography” up' }).click();
    await page.getByRole('button', { name: 'Move “Photography” up' }).click();
    await page.getByRole('button', { name: /^Remove “Old masters”/ }).click();

    const values = await formValues(page);
    const poll = JSON.parse(values.pollQuestion ?? '{}') as {
      question: string;
      answerType: string;
      answerChoices: unknown[];
    };
    expect(poll.question).toBe('Which exhibitions did you see?');
    expect(poll.answerType).toBe('multiple');
    expect(JSON.stringify(poll.answerChoices)).toMatch(/Photography.*Modern art/);
    expect(JSON.stringify(poll.answerChoices)).not.toContain('Old masters');

    const api = await apiClient(baseURL);
    const kept = await createAndReadBack(api, 'exhibitions-poll', 'cmsPollAsset', values);
    expect(kept.pollQuestion).toBe(values.pollQuestion);
    await api.dispose();

    expect(await seriousViolations(page)).toEqual([]);
  });

  test('every form of the gallery has no serious or critical accessibility violations, in light and dark', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await page.goto('/kit');
    const nav = page.getByRole('navigation', { name: 'Types' });
    await expect(nav.getByRole('link').first()).toBeVisible();
    const links = await nav.getByRole('link').evaluateAll((els) => els.map((e) => e.getAttribute('href') ?? ''));
    // The 27 widget types and every asset type (20 non-binary, and the binary ones).
    expect(links.length).toBeGreaterThanOrEqual(47);
    const problems: string[] = [];
    for (const href of links) {
      await page.goto(href);
      await expect(page.locator('h2[data-screen-heading]')).toBeVisible();
      await expect(page.getByText('Loading the editor…')).toHaveCount(0);
      for (const colorScheme of ['light', 'dark'] as const) {
        // Without motion the colours are final at once (buttons fade their colours when the theme changes).
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        // The form and what it sends; the app frame around it is checked by accessibility.spec.ts.
        for (const v of await seriousViolations(page, '.kit-gallery__main')) {
          problems.push(`${href} (${colorScheme}): ${v}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
