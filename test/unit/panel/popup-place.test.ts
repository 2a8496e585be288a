// The timeline's tooltip beside the pointer and inside its pane: it reached past a docked panel's right edge.
import { describe, expect, it } from 'vitest';
import { placeBeside } from '../../../panel/lib/popup-place.ts';

const pane = { left: 0, top: 0, width: 535, height: 160 };
const tip = { width: 380, height: 47 };

describe('placeBeside', () => {
  it('below right of the pointer where there is room', () => {
    expect(placeBeside(40, 30, tip, pane)).toEqual({ left: 52, top: 42 });
  });

  it('on the pointer\'s left where it would cross the right edge, above it where it would cross the bottom', () => {
    expect(placeBeside(500, 30, tip, pane)).toEqual({ left: 500 - 12 - 380, top: 42 });
    expect(placeBeside(40, 140, tip, pane)).toEqual({ left: 52, top: 140 - 12 - 47 });
  });

  it('kept inside where neither side has room: at the edge it would cross', () => {
    // 300 px in: 380 px fit neither right (to 692) nor left (from -92) of it.
    expect(placeBeside(300, 30, tip, pane)).toEqual({ left: 0, top: 42 });
    expect(placeBeside(300, 30, { width: 600, height: 200 }, pane)).toEqual({ left: 0, top: 0 }); // larger than the pane
  });

  it('in a scrolled pane: inside the part in view', () => {
    const scrolled = { left: 0, top: 400, width: 535, height: 160 };
    expect(placeBeside(40, 420, tip, scrolled)).toEqual({ left: 52, top: 432 });
    expect(placeBeside(40, 540, tip, scrolled)).toEqual({ left: 52, top: 540 - 12 - 47 });
    expect(placeBeside(40, 390, tip, { ...scrolled, height: 40 })).toEqual({ left: 52, top: 400 });
  });
});
