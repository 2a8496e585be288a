// EventViews as analysis shapes them for the timeline (the fields it reads), from plain events: what the timeline's
// unit tests derive lanes from. Each test file wrote this mapping out for itself.
import type { EventView } from '../../../src/core/analysis/types.ts';

/** `events` as EventViews arriving at `times` (ms; default: 10 ms apart). */
export function timelineViews(events: Record<string, unknown>[], times: number[] = events.map((_, i) => i * 10)): EventView[] {
  return events.map((raw, index) => ({
    index, frameIndex: index, t: times[index], type: String(raw.type), raw, rawText: JSON.stringify(raw), valid: true, issues: [], extras: [],
    replyId: typeof raw.reply_id === 'string' ? raw.reply_id : undefined,
    blockId: typeof raw.block_id === 'string' ? raw.block_id : undefined,
    preview: '', diagnostics: [],
  }));
}
