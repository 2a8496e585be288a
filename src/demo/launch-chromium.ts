// Finding a Chromium that honours --load-extension and preparing its flags/profile for `npm start`.
// Branded Google Chrome ignores --load-extension since version 137; Chromium and Chrome for Testing still load it.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface FoundChromium {
  path: string;
  /** Set when this browser is known not to load unpacked extensions from the command line. */
  warning?: string;
}

const CANDIDATES: Record<string, string[]> = {
  linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium', '/usr/bin/google-chrome-for-testing', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'],
  darwin: [
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ],
  win32: [
    `${process.env.LOCALAPPDATA ?? ''}\\Chromium\\Application\\chrome.exe`,
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  ],
};

/** CHROME_PATH, else a system Chromium (Chrome only as a last resort), else Playwright's Chromium if installed. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): FoundChromium | undefined {
  if (env.CHROME_PATH) {
    if (!existsSync(env.CHROME_PATH)) throw new Error(`CHROME_PATH=${env.CHROME_PATH} does not exist`);
    return withBrandCheck(env.CHROME_PATH);
  }
  const system = (CANDIDATES[process.platform] ?? []).find((p) => existsSync(p));
  if (system) return withBrandCheck(system);
  const bundled = playwrightChromium();
  return bundled ? { path: bundled } : undefined;
}

function playwrightChromium(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const { chromium } = require('playwright-core') as { chromium: { executablePath(): string } };
    const exe = chromium.executablePath();
    return existsSync(exe) ? exe : undefined;
  } catch {
    return undefined; // playwright-core not installed, or no browser downloaded
  }
}

/** Branded Google Chrome 137+ silently ignores --load-extension; say so instead of leaving the user puzzled. */
export function withBrandCheck(exe: string): FoundChromium {
  const out = spawnSync(exe, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const version = /Google Chrome (\d+)/.exec(out.stdout ?? '');
  if (version && !/for Testing/.test(out.stdout) && Number(version[1]) >= 137) {
    return {
      path: exe,
      warning: `${out.stdout.trim()} ignores --load-extension (Chrome 137+), so Replyscope will not be loaded. ` +
        'Use Chromium or Chrome for Testing (set CHROME_PATH), or load dist/ by hand in chrome://extensions.',
    };
  }
  return { path: exe };
}

export function chromiumArgs(profileDir: string, extensionDir: string): string[] {
  const args = [
    `--user-data-dir=${profileDir}`,
    `--load-extension=${extensionDir}`,
    `--disable-extensions-except=${extensionDir}`,
    '--auto-open-devtools-for-tabs',
    '--no-first-run',
    '--no-default-browser-check',
  ];
  // Chromium refuses to run as root without it (containers, CI).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  return args;
}

/** The id Chromium gives an unpacked extension: SHA-256 of its absolute path, first 32 hex digits mapped to a–p. */
export function unpackedExtensionId(extensionDir: string): string {
  const hex = createHash('sha256').update(path.resolve(extensionDir)).digest('hex').slice(0, 32);
  return Array.from(hex, (c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
}

/**
 * Pre-seeds the fresh profile's DevTools settings: docked at the bottom (the panel wants width), the Replyscope tab
 * first in the tab strip and remembered as the selected panel (an extension panel's id is its origin + title).
 * Chromium 156 still opens on Elements when DevTools starts before the extension's panel registers; the tab is
 * then at least visible up front rather than behind the overflow chevron.
 */
export function seedProfile(profileDir: string, extensionDir: string, panelTitle = 'Replyscope'): void {
  const panelId = `chrome-extension://${unpackedExtensionId(extensionDir)}${panelTitle}`;
  const order = { [panelId]: 5, elements: 10, console: 20, sources: 30, network: 40, timeline: 50, 'heap-profiler': 60, resources: 70 };
  const prefs = {
    devtools: {
      preferences: {
        'panel-selected-tab': JSON.stringify(panelId),
        'panel-tab-order': JSON.stringify(order),
        currentDockState: JSON.stringify('bottom'),
      },
    },
  };
  mkdirSync(path.join(profileDir, 'Default'), { recursive: true });
  writeFileSync(path.join(profileDir, 'Default', 'Preferences'), JSON.stringify(prefs));
}
