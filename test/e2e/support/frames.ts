// A same-origin iframe the test appends to an app page, and its Playwright frame once it has loaded.
import type { Frame, Page } from '@playwright/test';

export async function appendFrame(page: Page, src: string): Promise<Frame> {
  await page.evaluate((src) => new Promise<void>((resolve) => {
    const f = document.createElement('iframe');
    f.src = src;
    f.onload = () => resolve();
    document.body.append(f);
  }), src);
  const frame = page.frames().find((f) => f.url().endsWith(src));
  if (!frame) throw new Error(`no frame loaded ${src}`);
  return frame;
}
