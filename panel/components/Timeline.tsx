// The timeline chart (SVG): lanes from src/core/analysis/timeline.ts on a real time axis, delta ticks, waits and
// gaps, zoom (wheel / buttons) and pan (drag), hover shows the event, click seeks the scrubber there. Its text
// equivalent, for a screen reader or the keyboard, is the table the "Table" button opens (TimelineTable.tsx).
// Its buttons sit in the connection views' tab bar, as the event list's tools do (`tools`, a place app.tsx gives):
// a toolbar row of its own took a docked panel's chart ~25 px, a lane and a half of ~6. What it draws is in files of
// its own — the axis (TimelineAxis.tsx), the waits (TimelineWaits.tsx), the lanes (TimelineLanes.tsx) — as are the
// view it zooms and pans (useTimelineView.ts) and the event under the pointer (timeline-hit.ts).
import { signal, useComputed } from '@preact/signals';
import { createPortal } from 'preact/compat';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { deriveTimeline, type TimelineLane } from '../../src/core/analysis/timeline.ts';
import { Icon } from './Icon.tsx';
import { TimelineAxis } from './TimelineAxis.tsx';
import { TimelineLanes } from './TimelineLanes.tsx';
import { TABLE_ID, TimelineTable } from './TimelineTable.tsx';
import { TimelineTooltip } from './TimelineTooltip.tsx';
import { TimelineWaits } from './TimelineWaits.tsx';
import { nearestEvent } from './timeline-hit.ts';
import { AXIS_H, LABEL_MIN_W, LANE_H, labelFont } from './timeline-layout.ts';
import { useRevealReplyLanes, useRevealTable } from './timeline-scroll.ts';
import { useTimelineView } from './useTimelineView.ts';
import { axisScale, axisTime } from '../lib/axis-ticks.ts';
import { continuedSpanTitle } from '../lib/eviction-words.ts';
import { truncate } from '../lib/format.ts';
import { labelColumn, textWidth } from '../lib/text-fit.ts';
import { laneIds, shortIdsIn } from '../lib/timeline-words.ts';
import { eventByIndex } from '../store/lookups.ts';
import type { PanelStore } from '../store/store.ts';
import { replyNumberText } from '../lib/reply-words.ts';

/** The table is open: kept across tab and connection changes (a screen-reader user who opened it wants it again). */
const tableOpen = signal(false);

/** `tools`: where the chart's buttons go (an element of the tab bar; none yet while that is being drawn). */
export function Timeline({ store, tools }: { store: PanelStore; tools: HTMLElement | null }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  const dragRef = useRef<{ startX: number; v0: number } | undefined>(undefined);
  // The pointer in the window (clientX, clientY): the tooltip places itself in the pane from there.
  const [hover, setHover] = useState<{ x: number; y: number; text: string } | undefined>(undefined);
  const conn = store.selectedConnection.value;
  const tl = useComputed(() => {
    const c = store.selectedConnection.value; // a new view whenever the connection changed
    if (!c) return undefined;
    // Replies begun before what this connection holds (an evicted head, the connection it resumes): their blocks may
    // have started before its first event.
    const continuing = new Set(c.replies.filter((r) => r.continuesEviction || r.continuesConnection !== undefined).map((r) => r.id));
    return deriveTimeline(c.events, { dialect: c.dialect, ...(continuing.size ? { continuing } : {}) });
  }).value;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, [conn?.record.id]);
  const [view, setView] = useTimelineView(tl, conn, store.selectedEvent.value);
  // Built once per replies list, not on every render (a hover re-renders; a session can hold thousands of replies).
  const replies = conn?.replies;
  const { replyNumber, replyName, laneName, replyText } = useMemo(() => {
    const replyNumber = new Map((replies ?? []).map((r, i) => [r.id, i + 1]));
    const replyName = new Map((replies ?? []).map((r) => [r.id, r.name ? `${r.name} · ${r.id}` : r.id]));
    // Several replies: each lane says whose it is ("R2 · text …": lanes are grouped by kind, so two replies'
    // "model call 1" lanes looked the same).
    const laneName = (lane: TimelineLane) => {
      const n = lane.replyId === undefined ? undefined : replyNumber.get(lane.replyId);
      return n !== undefined && (replies?.length ?? 0) > 1 ? `${replyNumberText(n - 1)} · ${lane.label}` : lane.label;
    };
    const replyText = (id: string) => replyName.get(id) ?? id;
    return { replyNumber, replyName, laneName, replyText };
  }, [replies]);
  // Measured once per lanes, names and width (a hover re-renders). A label shows its ids shortened as the table does
  // ("R1 · text 0e78ea…493f"), the whole name in its title: a 32-digit id filled the column and the label was cut.
  const column = useMemo(
    () => (tl ? labelColumn(tl.lanes.map((lane) => shortIdsIn(laneName(lane), laneIds(lane))), width, labelFont(), LABEL_MIN_W) : undefined),
    [tl, laneName, width],
  );

  // A step the chart or its table picked: the reply it selects is not scrolled to — the user is where they clicked
  // (the chart) or working in the table, and the view jumped away from either.
  const picked = useRef<number | undefined>(undefined);
  const pick = useMemo(() => (event: number) => {
    picked.current = event;
    store.selectEvent(event);
  }, [store]);
  const replyId = store.selectedReply.value?.id;
  // Marked only among several replies: with one, every lane but a notification's is its — all marked, none stood out.
  const markedReply = (conn?.replies.length ?? 0) > 1 ? replyId : undefined;
  // Read once: left standing, a later choice from the list of the very event picked here was taken for this pick.
  useRevealReplyLanes(box, tl?.lanes, replyId, conn?.record.id, { axisH: AXIS_H, laneH: LANE_H }, () => {
    const here = picked.current !== undefined && picked.current === store.selectedEvent.peek();
    picked.current = undefined;
    return here;
  });
  const tableOpened = useRef(false);
  useRevealTable(box, tableOpened, TABLE_ID);

  if (!conn || !tl) return <div class="empty">Select a connection to see its timeline.</div>;
  if (tl.lanes.length === 0) return <div class="empty">No block events to chart in this stream.</div>;

  const full: [number, number] = [tl.start, tl.end > tl.start ? tl.end : tl.start + 1];
  const [v0, v1] = view ?? full;
  const labelW = column?.width ?? LABEL_MIN_W;
  const plotW = Math.max(50, width - labelW - 8);
  const x = (t: number) => labelW + ((t - v0) / (v1 - v0)) * plotW;
  const tAt = (px: number) => v0 + ((px - labelW) / plotW) * (v1 - v0);
  const origin = tl.axis === 'arrival' ? conn.record.startTime : tl.start;
  const height = AXIS_H + tl.lanes.length * LANE_H + 6;
  const selected = store.selectedEvent.value;
  const selPos = selected === undefined ? undefined : tl.times[selected - (conn.events[0]?.index ?? 0)];
  // Labels that fit before the axis's right edge (8 px past the plot's), measured in its font: a fixed 30 px kept from
  // the plot's end dropped the last of a docked panel's three ticks, the first being before the view.
  const axisFont = labelFont(10);
  const axis = axisScale(v0, v1, origin, plotW, { pastEnd: width - labelW - plotW, width: (l) => textWidth(l, axisFont) });
  const shownTicks = axis.ticks;

  const zoom = (factor: number, at = (v0 + v1) / 2) => {
    const span = Math.max((full[1] - full[0]) / 1e6, (v1 - v0) * factor);
    let a = at - (at - v0) * (span / (v1 - v0));
    a = Math.max(full[0], Math.min(a, full[1] - span));
    setView(span >= full[1] - full[0] ? undefined : [a, a + span]);
  };
  const cursorAt = () => (selPos !== undefined && Number.isFinite(selPos) && selPos >= v0 && selPos <= v1 ? selPos : undefined);
  const pan = (dt: number) => {
    const span = v1 - v0;
    const a = Math.max(full[0], Math.min(v0 + dt, full[1] - span));
    setView([a, a + span]);
  };

  const nearest = (px: number, py: number) => nearestEvent(tl.lanes, px, py, { x, tAt, labelW });
  const local = (e: MouseEvent) => {
    const r = (e.currentTarget as SVGSVGElement).getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top] as const;
  };

  const onPointerDown = (e: PointerEvent) => {
    dragRef.current = { startX: e.clientX, v0 };
    (e.currentTarget as Element).setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent) => {
    const [px, py] = local(e);
    const drag = dragRef.current;
    if (drag && Math.abs(e.clientX - drag.startX) > 3) {
      const dt = -((e.clientX - drag.startX) / plotW) * (v1 - v0);
      const span = v1 - v0;
      const a = Math.max(full[0], Math.min(drag.v0 + dt, full[1] - span));
      setView([a, a + span]);
      return;
    }
    const hit = nearest(px, py);
    const ev = hit && eventByIndex(conn, hit.event);
    // Its time as the axis reads it (an axis of event indexes has none: "#12" says it).
    const at = hit && tl.axis !== 'index' ? `\n${axisTime(hit.t, v0, v1, origin, plotW, axis.step)}` : '';
    setHover(
      ev
        ? { x: e.clientX, y: e.clientY, text: `#${ev.index} ${ev.type}${ev.blockId ? ` · ${ev.blockId}` : ''}${at}${ev.preview ? `\n${truncate(ev.preview, 200)}` : ''}` }
        : undefined,
    );
  };
  const onPointerUp = (e: PointerEvent) => {
    const drag = dragRef.current;
    const moved = drag && Math.abs(e.clientX - drag.startX) > 3;
    dragRef.current = undefined;
    if (moved) return;
    const [px, py] = local(e);
    const hit = nearest(px, py);
    if (hit) pick(hit.event);
  };
  const onWheel = (e: WheelEvent) => {
    e.preventDefault();
    const [px] = local(e);
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) pan(((e.deltaX || e.deltaY) / plotW) * (v1 - v0));
    else zoom(e.deltaY > 0 ? 1.25 : 0.8, px >= labelW ? tAt(px) : undefined);
  };

  return (
    // Focusable: a short pane (a panel docked to the side shows five lanes) scrolls, and the keys (↑/↓, Page Up/Down)
    // could not scroll it — there is nothing to focus in the chart itself (axe: scrollable-region-focusable).
    <div class="timeline" ref={box} data-testid="timeline" tabIndex={0} role="region" aria-label="Timeline chart">
      {tools ? createPortal(
        <>
          {/* Around the selected step when it is in view (zooming around the middle lost it), else the middle. */}
          <button onClick={() => zoom(0.5, cursorAt())} aria-label="Zoom in"><Icon name="zoomIn" /></button>
          <button onClick={() => zoom(2, cursorAt())} aria-label="Zoom out"><Icon name="zoomOut" /></button>
          {/* aria-disabled: disabled by its own press, the button lost focus to the document. */}
          <button onClick={() => view && setView(undefined)} aria-disabled={!view}>Fit</button>
          <button class={tableOpen.value ? 'on' : undefined} onClick={() => (tableOpen.value = tableOpened.current = !tableOpen.value)} aria-expanded={tableOpen.value} aria-controls={TABLE_ID}>Table</button>
        </>,
        tools,
      ) : null}
      <TimelineAxis axis={tl.axis} ticks={shownTicks} x={x} labelW={labelW} width={width} />
      <svg
        width={width}
        height={height}
        role="img"
        aria-label={`Timeline: ${tl.lanes.length} lanes${tableOpen.value ? ', listed in the table below' : ' (the Table button lists them as text)'}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerLeave={() => setHover(undefined)}
        onWheel={onWheel}
      >
        <defs>
          <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <line class="tl-hatch" x1="0" y1="0" x2="0" y2="6" stroke="var(--warn)" stroke-width="2" opacity="0.35" />
          </pattern>
          {/* 4 px past the axis's end: a point there (the last event — a CUSTOM after the reply ended) is a 3 px bar
              drawn from it, which a clip at the end cut away whole. */}
          <clipPath id="plot">
            <rect x={labelW} y={0} width={plotW + 4} height={height} />
          </clipPath>
          {/* Labels stop short of the bars (the clip holds whatever the font measured differently). */}
          <clipPath id="labels">
            <rect x={0} y={0} width={labelW - 6} height={height} />
          </clipPath>
        </defs>
        {shownTicks.map(({ t }) => <line key={t} class="axis" x1={x(t)} x2={x(t)} y1={AXIS_H - 4} y2={height} opacity="0.5" />)}
        <TimelineWaits tl={tl} x={x} />
        <TimelineLanes
          lanes={tl.lanes}
          x={x}
          labelW={labelW}
          plotW={plotW}
          width={width}
          labelTexts={column?.texts}
          laneName={laneName}
          replyNumber={replyNumber}
          replyName={replyName}
          markedReply={markedReply}
          continuedTitle={conn ? continuedSpanTitle(conn) : ''}
        />
        {selPos !== undefined && Number.isFinite(selPos) && selPos >= v0 && selPos <= v1 ? (
          <line class="cursor" x1={x(selPos)} x2={x(selPos)} y1={AXIS_H - 4} y2={height} />
        ) : null}
      </svg>
      {/* keyed by connection: what its status line said of another connection's lanes is not carried over */}
      {tableOpen.value ? <TimelineTable key={conn.record.id} store={store} conn={conn} tl={tl} laneName={laneName} replyName={replyText} select={pick} /> : null}
      {hover ? <TimelineTooltip x={hover.x} y={hover.y} text={hover.text} /> : null}
    </div>
  );
}
