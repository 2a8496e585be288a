// The page-overhead profile attribution (bench/page-profile.ts): a sample counts for the tap or the relay when one of
// their frames is on its stack (the nearest one to the leaf), for the page otherwise.
import { describe, expect, it } from 'vitest';
import { attribute } from '../../../bench/page-profile.ts';

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url }, children });

describe('page profile attribution', () => {
  it('charges each sample to the extension script nearest its leaf, natives it calls included', () => {
    const profile = {
      nodes: [
        frame(1, '(root)', ''),
        frame(2, 'readStream', 'http://127.0.0.1:1/app', [3, 5]),
        frame(3, 'pull', 'chrome-extension://x/src/extension/tap/main-world.js', [4]),
        frame(4, 'push', 'chrome-extension://x/src/extension/tap/main-world.js', [6]),
        frame(5, 'onTapMessage', 'chrome-extension://x/src/extension/relay.js'),
        frame(6, 'slice', ''),
      ],
      samples: [2, 6, 6, 4, 5, 2],
      timeDeltas: [0, 1000, 2000, 2000, 1000, 3000, 1000],
    };
    profile.nodes[0].children = [2];
    const p = attribute(profile);
    expect(p.totalMs).toBe(10);
    expect(p.tapMs).toBe(5); // two samples of the copy's native slice (2 + 2) and one in push itself (1)
    expect(p.relayMs).toBe(3);
    expect(p.top).toBe('tap push');
    expect(p.topMs).toBe(5);
  });
});
