// Where the page overhead goes: one more read with the extension, under Chromium's CPU profiler (CDP, the app page's
// main thread — which the tap and the relay share with the page), its samples attributed to the extension's scripts.
// The time ratio swings with the machine; this attribution does not, and names the cost (issue 6: "find the cost
// with a profile").
import type { Page } from '@playwright/test';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface PageProfile {
  /** Sampled time of the read, ms. */
  totalMs: number;
  /** Time with a frame of the MAIN-world tap / the isolated relay on the stack, ms. */
  tapMs: number;
  relayMs: number;
  /** The extension function with the most self time (with its own time, ms), e.g. the tap's copy of each chunk. */
  top: string;
  topMs: number;
}

const TAP = /tap\/main-world\.js/;
const RELAY = /relay\.js/;

/** Attribute the samples of `profile` to the tap, the relay, or the page. */
export function attribute(profile: Profile): PageProfile {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const out: PageProfile = { totalMs: 0, tapMs: 0, relayMs: 0, top: '', topMs: 0 };
  const self = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    out.totalMs += ms;
    const leaf = byId.get(profile.samples[i]) as ProfileNode;
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const frame = (byId.get(id) as ProfileNode).callFrame;
      const where = TAP.test(frame.url) ? 'tap' : RELAY.test(frame.url) ? 'relay' : undefined;
      if (!where) continue;
      if (where === 'tap') out.tapMs += ms;
      else out.relayMs += ms;
      const key = `${where} ${frame.functionName || '(anonymous)'}`;
      self.set(key, (self.get(key) ?? 0) + ms);
      break;
    }
  }
  for (const [k, ms] of self) if (ms > out.topMs) [out.top, out.topMs] = [k, ms];
  return out;
}

/** Profile `read(app)` on the app page's main thread (100 µs sampling). */
export async function profileRead<T>(app: Page, read: (app: Page) => Promise<T>): Promise<PageProfile> {
  const cdp = await app.context().newCDPSession(app);
  try {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await read(app);
    const { profile } = await cdp.send('Profiler.stop');
    return attribute(profile as unknown as Profile);
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
