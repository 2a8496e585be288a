// Small inline SVG icons (static shapes of our own; fonts in DevTools hosts often lack media-control glyphs).
const PATHS = {
  first: 'M3 3h2v10H3zM13 3v10L6 8z',
  prev: 'M12 3v10L5 8z',
  play: 'M4 3v10l9-5z',
  pause: 'M4 3h3v10H4zM9 3h3v10H9z',
  next: 'M4 3v10l7-5z',
  last: 'M11 3h2v10h-2zM3 3v10l7-5z',
  zoomIn: 'M7 2h2v5h5v2H9v5H7V9H2V7h5z',
  zoomOut: 'M2 7h12v2H2z',
  tool: 'M10.5 1.5a3.5 3.5 0 0 0-3.3 4.7L1.8 11.6a1.4 1.4 0 0 0 2 2l5.4-5.4a3.5 3.5 0 0 0 4.6-4.4l-2 2-1.7-.4-.4-1.7 2-2a3.5 3.5 0 0 0-1.2-.2z',
  warnPrev: 'M8 1.5 15 14H1zM7.3 6v4h1.4V6zm0 5v1.4h1.4V11z',
  info: 'M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM7.2 4h1.6v1.6H7.2zm0 3h1.6v5H7.2z',
  // Two overlapping windows: a request made in a subframe (the "⧉" character was a missing-glyph box in some fonts).
  frame: 'M5 1.5h9.5V11H13V3H5zM1.5 5H11v9.5H1.5zM3 6.5v6.5h6.5V6.5z',
  // A circling arrow: a request that resumed an earlier stream (Last-Event-ID), or a stream a later request resumed.
  resume: 'M8 2.5a5.5 5.5 0 1 0 5.2 3.7l-1.5.5A4 4 0 1 1 8 4v2l3-2.75L8 .5z',
  // Chevrons: a folded bar opens (down), an open one folds (up).
  expand: 'M3.5 5.5 8 10l4.5-4.5 1.1 1.1L8 12.2 2.4 6.6z',
  collapse: 'M3.5 10.5 8 6l4.5 4.5 1.1-1.1L8 3.8 2.4 9.4z',
  clear: 'M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zm0 1.6a4.9 4.9 0 0 1 3.9 7.8L5.1 4.1A4.9 4.9 0 0 1 8 3.1zM4 5.2l6.8 6.8A4.9 4.9 0 0 1 4 5.2z',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 12 }: { name: IconName; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" class="icon">
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
