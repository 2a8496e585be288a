// The panel theme: DevTools' theme (and its changes) inside DevTools, prefers-color-scheme elsewhere, ?theme= forced.
import { describe, expect, it } from 'vitest';
import { installTheme, themeOf, type DevtoolsPanelsLike } from '../../../panel/theme.ts';

/** A document with just what installTheme touches, and a prefers-color-scheme query the test can flip. */
function fakeDoc(dark: boolean) {
  const listeners = new Set<() => void>();
  const mq = {
    matches: dark,
    addEventListener: (_: string, cb: () => void) => listeners.add(cb),
    removeEventListener: (_: string, cb: () => void) => listeners.delete(cb),
  };
  const doc = { documentElement: { dataset: {} as DOMStringMap }, defaultView: { matchMedia: () => mq } } as unknown as Document;
  return {
    doc,
    theme: () => doc.documentElement.dataset.theme,
    flip(to: boolean) {
      mq.matches = to;
      for (const l of listeners) l();
    },
    listeners,
  };
}

describe('installTheme', () => {
  it('follows prefers-color-scheme outside DevTools, live', () => {
    const d = fakeDoc(true);
    const stop = installTheme(d.doc, '', undefined);
    expect(d.theme()).toBe('dark');
    d.flip(false);
    expect(d.theme()).toBe('light');
    stop();
    expect(d.listeners.size).toBe(0);
  });

  it("follows Chrome DevTools' theme name and its change handler, not the OS", () => {
    const d = fakeDoc(false);
    let handler: ((t: string) => void) | undefined;
    const panels: DevtoolsPanelsLike = { themeName: 'dark', setThemeChangeHandler: (cb) => (handler = cb) };
    const stop = installTheme(d.doc, '', panels);
    expect(d.theme()).toBe('dark');
    handler!('default');
    expect(d.theme()).toBe('light');
    d.flip(true); // the OS preference does not matter inside DevTools
    expect(d.theme()).toBe('light');
    stop();
    expect(handler).toBeUndefined();
  });

  it("follows Firefox's onThemeChanged", () => {
    const d = fakeDoc(true);
    const cbs = new Set<(t: string) => void>();
    const panels: DevtoolsPanelsLike = { themeName: 'light', onThemeChanged: { addListener: (cb) => cbs.add(cb), removeListener: (cb) => cbs.delete(cb) } };
    const stop = installTheme(d.doc, '', panels);
    expect(d.theme()).toBe('light');
    for (const cb of cbs) cb('dark');
    expect(d.theme()).toBe('dark');
    stop();
    expect(cbs.size).toBe(0);
  });

  it('?theme= wins over everything', () => {
    const d = fakeDoc(true);
    installTheme(d.doc, '?theme=light', { themeName: 'dark' });
    expect(d.theme()).toBe('light');
  });

  it('maps DevTools theme names', () => {
    expect([themeOf('dark'), themeOf('default'), themeOf('light'), themeOf(undefined)]).toEqual(['dark', 'light', 'light', 'light']);
  });
});
