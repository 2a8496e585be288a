// One binary search for the several sorted lists the analysis, the panel and the CLI look things up in (a reply's
// steps, events by frame, line breaks): each wrote its own loop, the same seven lines.

/**
 * The first index in [0, length) at which `before(i)` is false, `before` being true on a prefix of the range and false
 * after it (e.g. `i => sorted[i] < value`: the lower bound of `value`); `length` when it is true throughout.
 */
export function partitionPoint(length: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
