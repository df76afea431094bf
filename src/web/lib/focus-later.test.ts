import { afterEach, describe, expect, it } from 'vitest';
import { focusLater } from './focus-later';

const frames = (n: number) =>
  new Promise<void>((resolve) => {
    const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
    step(n);
  });

function button(label: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.textContent = label;
  return b;
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('focusLater', () => {
  it('focuses the element once it appears', async () => {
    const row = button('row');
    focusLater(() => (row.isConnected ? row : null), 20);
    await frames(3);
    expect(document.activeElement).toBe(document.body);
    document.body.append(row);
    await frames(2);
    expect(document.activeElement).toBe(row);
  });

  it('takes nothing from a person who clicked meanwhile: the menu they opened keeps focus', async () => {
    const row = button('row');
    const menu = button('menu');
    document.body.append(menu);
    focusLater(() => (row.isConnected ? row : null), 20);
    await frames(2);
    menu.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    menu.focus();
    document.body.append(row);
    await frames(4);
    expect(document.activeElement).toBe(menu);
  });

  it('takes nothing from a person who pressed a key meanwhile', async () => {
    const row = button('row');
    const field = document.createElement('input');
    document.body.append(field);
    focusLater(() => (row.isConnected ? row : null), 20);
    field.focus();
    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    document.body.append(row);
    await frames(4);
    expect(document.activeElement).toBe(field);
  });

  it('gives up after its frames, and can be cancelled', async () => {
    const row = button('row');
    focusLater(() => (row.isConnected ? row : null), 2);
    await frames(4);
    document.body.append(row);
    await frames(2);
    expect(document.activeElement).toBe(document.body);

    const other = button('other');
    const cancel = focusLater(() => (other.isConnected ? other : null), 20);
    cancel();
    document.body.append(other);
    await frames(3);
    expect(document.activeElement).toBe(document.body);
  });
});
