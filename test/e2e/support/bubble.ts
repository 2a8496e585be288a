// The text blocks of the panel's message bubble. A long text is laid out as a bounded head … tail window
// (panel/components/LongText.tsx); `expectedShown` says what the bubble must then show of an expected text.
import type { Page } from '@playwright/test';
import { elide } from '../../../panel/lib/elide.ts';

export interface ShownText {
  /** The characters on screen (head + tail when elided). */
  text: string;
  /** Characters the elision bar says it left out (0 when none). */
  hidden: number;
}

/** Every text block of the bubble, as shown. */
export async function bubbleTextBlocks(page: Page): Promise<ShownText[]> {
  return page.getByTestId('bubble').locator('[data-block-type="text"] .block-text').evaluateAll((els) =>
    els.map((el) => {
      const bar = el.querySelector('[data-testid="elided"]');
      const hidden = bar ? Number((bar.textContent ?? '').match(/([\d,]+) characters/)?.[1].replace(/,/g, '') ?? NaN) : 0;
      let text = '';
      for (const node of el.childNodes) if (node !== bar) text += node.textContent ?? '';
      return { text, hidden };
    }),
  );
}

/** What the bubble shows of `text` with the default window. */
export function expectedShown(text: string): ShownText {
  const e = elide(text);
  return { text: e.head + e.tail, hidden: e.hidden };
}
