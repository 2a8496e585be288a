// What an object graph holds on to, for tests of bounded state: walked, not measured (heap sizes are noisy).

/** Characters of every string (and bytes of every byte array) reachable from `root`, each object counted once. */
export function retainedChars(root: unknown): number {
  let n = 0;
  walk(root, (v) => {
    if (typeof v === 'string') n += v.length;
    else if (ArrayBuffer.isView(v)) n += v.byteLength;
  });
  return n;
}

/** Whether a string equal to `s` is reachable from `root`. */
export function reaches(root: unknown, s: string): boolean {
  let found = false;
  walk(root, (v) => {
    if (v === s) found = true;
  });
  return found;
}

function walk(root: unknown, visit: (v: unknown) => void): void {
  const seen = new Set<unknown>();
  const stack = [root];
  while (stack.length) {
    const v = stack.pop();
    visit(v);
    if (v === null || typeof v !== 'object' || seen.has(v) || ArrayBuffer.isView(v)) continue;
    seen.add(v);
    if (v instanceof Map) for (const [k, x] of v) stack.push(k, x);
    else if (v instanceof Set) for (const x of v) stack.push(x);
    else for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
  }
}
