// Where a popup that follows the pointer goes (the timeline's hover tooltip): beside the pointer and inside the box it
// is seen in. Put below right of the pointer whatever the room, the tooltip of an event near the chart's right edge
// reached past the window (800 × 500: 250 px of it past the pane), and one near its bottom went under the scrubber.

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The left and top of a popup of `size` beside the pointer at (x, y): `offset` px below right of it, on the pointer's
 * left where it would cross `bounds`' right edge, above it where it would cross the bottom edge — and inside `bounds`
 * whatever it is (at their left and top edges when it is larger than they are).
 */
export function placeBeside(x: number, y: number, size: { width: number; height: number }, bounds: Box, offset = 12): { left: number; top: number } {
  const along = (at: number, length: number, start: number, room: number) => {
    let p = at + offset;
    if (p + length > start + room) p = at - offset - length;
    return Math.max(start, Math.min(p, start + room - length));
  };
  return { left: along(x, size.width, bounds.left, bounds.width), top: along(y, size.height, bounds.top, bounds.height) };
}
