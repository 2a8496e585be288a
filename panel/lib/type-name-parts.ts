// An event type's name in two parts for a narrow cell: its last word, which a cut must keep, and the rest, which gives
// way. The event list's Type column (~130 px beside the message at 600 px) cut "TEXT_BLOCK_DELTA", "_START" and
// "_END" alike to "TEXT_BLOCK_D…" and "TEXT_BLOCK_S…": the end that tells them apart was the end cut. Pi's types end
// the same way ("toolcall_delta", "tool_execution_update").

export interface TypeNameParts {
  /** What gives way, cut at its end ("TEXT_BLOCK"); the whole name when it has no last word to keep. */
  head: string;
  /** The last word with its separator ("_DELTA"), kept whole; '' when there is none. */
  tail: string;
}

/** Longest last word kept whole: a long one ("_INTERRUPTED_BY_USER_SOMETHING") is cut from its end as before. */
export const TYPE_TAIL_MAX = 12;

/** Longest name split; a longer one is cut from its end (the cell shows a fraction of it either way). */
const TYPE_NAME_MAX = 200;

/**
 * A name's head — ending in a letter, not a separator — and its last word after one separator: separators are
 * AgentScope's and pi's "_", and "." ":" "/" "-" of other protocols' names.
 */
const PARTS = /^(.*[^_.:/-])([_.:/-][^_.:/-]+)$/s;

/**
 * `type` split before its last word, when it has one after a first word and that word is short: "TEXT_BLOCK_DELTA" →
 * "TEXT_BLOCK" + "_DELTA"; "done", "_x", "a_" and a name ending in a long word stay whole in `head`.
 */
export function typeNameParts(type: string): TypeNameParts {
  // A type of any length can arrive (a hostile or broken stream); a cell shows ~20 characters of it.
  const m = type.length > TYPE_NAME_MAX ? null : PARTS.exec(type);
  if (!m || m[2]!.length > TYPE_TAIL_MAX) return { head: type, tail: '' };
  return { head: m[1]!, tail: m[2]! };
}
