import { describe, expect, it } from 'vitest';
import type { KeyboardEvent } from 'react';
import { tabKeyTarget } from './tab-keys.ts';

const press = (key: string) => {
  const event = { key, defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
  return event as unknown as KeyboardEvent & { defaultPrevented: boolean };
};

describe('tabKeyTarget', () => {
  it('moves along the tabs with the arrows, wrapping round at either end', () => {
    expect(tabKeyTarget(press('ArrowRight'), 0, 3)).toBe(1);
    expect(tabKeyTarget(press('ArrowRight'), 2, 3)).toBe(0);
    expect(tabKeyTarget(press('ArrowLeft'), 0, 3)).toBe(2);
    expect(tabKeyTarget(press('ArrowLeft'), 2, 3)).toBe(1);
  });

  it('jumps to the first and the last tab with Home and End, keeping the key from scrolling the page', () => {
    const home = press('Home');
    expect(tabKeyTarget(home, 2, 3)).toBe(0);
    expect(home.defaultPrevented).toBe(true);
    expect(tabKeyTarget(press('End'), 0, 3)).toBe(2);
  });

  it('leaves every other key alone', () => {
    const tab = press('Tab');
    expect(tabKeyTarget(tab, 1, 3)).toBeNull();
    expect(tab.defaultPrevented).toBe(false);
  });
});
