// Summarise a V8 .cpuprofile (node --cpu-prof, or Chromium's Profiler.stop through CDP): self time per function and
// per file, heaviest first. Usage: node --import tsx bench/profile-summary.ts FILE.cpuprofile [top=30] [under=NAME]
// `under`: count only samples with a frame of that function name on the stack (e.g. `pipelineIngest`), so the
// capture generation and the baseline of a benchmark script do not dilute the shares of the code being tuned.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Ids of the nodes at or below a frame named `name`. */
function nodesUnder(profile: Profile, name: string): Set<number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Set<number>();
  const mark = (id: number) => {
    const stack = [id];
    while (stack.length) {
      const n = byId.get(stack.pop() as number) as ProfileNode;
      if (out.has(n.id)) continue;
      out.add(n.id);
      stack.push(...(n.children ?? []));
    }
  };
  for (const n of profile.nodes) if (n.callFrame.functionName === name) mark(n.id);
  return out;
}

export function summarise(profile: Profile, top = 30, under?: string): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const keep = under ? nodesUnder(profile, under) : undefined;
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    if (keep && !keep.has(id)) return;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  for (const [id, us] of self) {
    const cf = (byId.get(id) as ProfileNode).callFrame;
    const short = cf.url.replace(/^.*\/(node_modules\/[^/]+|src|bench|panel)\//, '$1/');
    const name = `${cf.functionName || '(anonymous)'} ${short}:${cf.lineNumber + 1}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    file.set(short || '(native)', (file.get(short || '(native)') ?? 0) + us);
  }
  const fmt = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`).join('\n');
  return `total ${(total / 1000).toFixed(0)} ms${under ? ` under ${under}` : ''}\n-- self time by function --\n${fmt(fn)}\n-- by file --\n${fmt(file)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [path, top, under] = process.argv.slice(2);
  if (!path) throw new Error('usage: profile-summary.ts FILE.cpuprofile [top] [under]');
  console.log(summarise(JSON.parse(readFileSync(path, 'utf8')) as Profile, Number(top ?? 30), under));
}
