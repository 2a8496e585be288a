// The panel inside the extension (panel/index.html?tabId=N in a tab, as the devtools page opens it): a live
// AgentScope stream from a loopback server shows up while it streams, the selection and a scrubbed-back step survive
// live updates, the final bubble equals the core's reconstruction of what the extension captured, clear empties it;
// an imported file is read in the panel's import worker, which the extension's CSP lets run, and stays (its file
// named) when the extension sends the capture anew and after a reload.
import { bubbleTextBlocks, expectedShown } from './support/bubble.ts';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { launchWithExtension, setCaptureLimit, type ExtensionBrowser } from './support/extension.ts';
import { startServer, writeAndWait, deferred, type TestServer } from './support/server.ts';
import { CaptureAnalyzer, writeCaptureLog } from '../../panel/core-bridge.ts';
import { importWorkerSeen, watchImportWorker } from './support/import-worker-watch.ts';
import { sampleCapture } from '../../panel/dev/sample-capture.ts';

let ext: ExtensionBrowser;
let server: TestServer;
/** Each /stream request waits on `gate` between the two halves of its events. */
let gate = deferred();

const REPLY = 'reply-live-1';
const BURST = 20_000;
const words = 'Streaming straight into the Replyscope panel, one small delta at a time.'.split(/(?<= )/);
function frames(): string[] {
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify({ id: `e${Math.random().toString(36).slice(2)}`, created_at: new Date().toISOString(), reply_id: REPLY, ...o })}\n\n`;
  return [
    ev({ type: 'REPLY_START', session_id: 's', name: 'Friday' }),
    ev({ type: 'TEXT_BLOCK_START', block_id: 't1' }),
    ...words.map((w) => ev({ type: 'TEXT_BLOCK_DELTA', block_id: 't1', delta: w })),
    ev({ type: 'TEXT_BLOCK_END', block_id: 't1' }),
    ev({ type: 'REPLY_END', session_id: 's' }),
  ];
}

test.beforeAll(async () => {
  ext = await launchWithExtension();
  server = await startServer(async (req, res) => {
    if (req.url === '/app') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>chat</title><button id="go" onclick="run()">go</button><pre id="out"></pre>
<script>async function run(){const r=await fetch('/stream');const rd=r.body.getReader();const d=new TextDecoder();
for(;;){const {done,value}=await rd.read();if(done)break;document.getElementById('out').textContent+=d.decode(value,{stream:true});}
document.title='done';}</script>`);
      return;
    }
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      const all = frames();
      const half = 6;
      for (const f of all.slice(0, half)) await writeAndWait(res, f);
      await gate.promise;
      for (const f of all.slice(half)) await writeAndWait(res, f);
      res.end();
      return;
    }
    if (req.url === '/burst') {
      // A fast stream: BURST deltas written in batches as quickly as the socket takes them.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify({ reply_id: 'burst', ...o })}\n\n`;
      await writeAndWait(res, ev({ type: 'REPLY_START', session_id: 's', name: 'Burst' }) + ev({ type: 'TEXT_BLOCK_START', block_id: 'b' }));
      for (let i = 0; i < BURST; i += 500) {
        let batch = '';
        for (let j = i; j < Math.min(BURST, i + 500); j++) batch += ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: `${j} ` });
        await writeAndWait(res, batch);
      }
      await writeAndWait(res, ev({ type: 'TEXT_BLOCK_END', block_id: 'b' }) + ev({ type: 'REPLY_END', session_id: 's' }));
      res.end();
      return;
    }
    res.writeHead(404).end();
  });
});
test.afterAll(async () => {
  gate.resolve();
  await server?.close();
  await ext?.close();
});

/** A fresh tab on the chat page, and the panel (as a tab) watching it. */
async function appWithPanel(): Promise<{ app: Page; panel: Page; tabId: number }> {
  const app = await ext.context.newPage();
  await app.goto(`${server.url}/app`);
  const tabId = await ext.tabIdFor(app);
  return { app, panel: await ext.panelPage(tabId), tabId };
}

/** The app's stream started and held open at the gate, its connection row in the panel marked live. */
async function streamingPanel(): Promise<{ app: Page; panel: Page; row: Locator }> {
  gate = deferred();
  const { app, panel } = await appWithPanel();
  await app.click('#go');
  const row = panel.locator('[data-conn]').first();
  await expect(row).toContainText('live');
  return { app, panel, row };
}

async function bubbleText(panel: Page): Promise<string> {
  return (await panel.getByTestId('bubble').locator('[data-block-type="text"] .block-text').allTextContents()).join('');
}

test('a live stream appears while it streams; selection and a scrubbed-back step survive updates', async () => {
  gate = deferred();
  const app = await ext.context.newPage();
  await app.goto(`${server.url}/app`);
  const tabId = await ext.tabIdFor(app);
  await ext.watch(tabId); // the debug hook collects the same capture the panel gets, for the Node-side check
  const panel = await ext.panelPage(tabId);
  await expect(panel.getByTestId('empty')).toContainText('No agent streams yet');

  await app.click('#go');
  const row = panel.locator('[data-conn]').first();
  await expect(row).toContainText('/stream');
  await expect(row).toContainText('live');
  await row.click();
  // Streaming: the reply is selected and followed at its newest step.
  await expect(panel.getByTestId('step-pos')).toHaveText(/^step 6 \/ 6\b/);
  expect(await bubbleText(panel)).toBe(words.slice(0, 4).join(''));
  // Scrub back to step 3 with the keyboard, then let the rest of the stream arrive.
  await panel.keyboard.press('Home');
  await panel.keyboard.press('ArrowRight');
  await panel.keyboard.press('ArrowRight');
  await expect(panel.getByTestId('step-pos')).toHaveText(/^step 3 \/ 6\b/);
  gate.resolve();
  await expect(app).toHaveTitle('done');
  await expect(row).toContainText('complete');
  const total = frames().length;
  await expect(panel.getByTestId('step-pos')).toHaveText(new RegExp(`^step 3 / ${total}\\b`));
  await expect(row).toHaveAttribute('aria-selected', 'true');

  // The last step shows what the core reconstructs from the extension's own capture of this tab.
  const records = await ext.records(tabId);
  const analyzer = new CaptureAnalyzer();
  analyzer.push(records);
  const reply = analyzer.connections()[0].replies[0];
  const final = reply.history.at(reply.history.length - 1) as { content: { type: string; text?: string }[] };
  await panel.keyboard.press('End');
  expect(await bubbleText(panel)).toBe(final.content.filter((b) => b.type === 'text').map((b) => b.text).join(''));
  expect(await bubbleText(panel)).toBe(words.join(''));

  await panel.getByRole('button', { name: 'Clear' }).click();
  await expect(panel.getByTestId('empty')).toBeVisible();
  await panel.close();
  await app.close();
});

test('Clear with a stream still open: what it dropped is said as Clear\'s, not the memory cap\'s, and the reply goes on', async () => {
  const { app, panel, row } = await streamingPanel();
  await row.click();
  await expect(panel.getByTestId('step-pos')).toHaveText(/^step 6 \/ 6\b/);
  await panel.getByRole('button', { name: 'Clear' }).click();
  // The open stream stays, going on from a digest of what Clear dropped — which read "6 oldest events (memory cap)"
  // (and "evicted 6 events before this point (memory cap)") in a capture nowhere near its cap.
  await expect(row).toContainText('live');
  await row.click();
  await expect(panel.getByText('6 oldest events (Clear, the stream still open)')).toBeVisible();
  await expect(panel.getByText('(memory cap)')).toHaveCount(0);
  gate.resolve();
  await expect(row).toContainText('complete');
  // The scrubber's "(continues after evicted events)" said "evicted by the memory cap" in its title.
  const pos = panel.getByTestId('step-pos');
  await expect(pos.locator('[title*="evicted by Clear (the stream still open)"]')).toHaveCount(1);
  await expect(pos.locator('[title*="memory cap"]')).toHaveCount(0);
  await panel.getByRole('tab', { name: /Diagnostics/ }).click();
  await expect(panel.getByTestId('diagnostics')).toContainText('evicted 6 events before this point (Clear, the stream still open)');
  await expect(panel.getByTestId('bubble')).toContainText(words.join(''));
  await panel.close();
  await app.close();
});

test('a panel opened as a tab outlives the tab it inspects: what it captured stays, and it says the tab was closed', async () => {
  const { app, panel, row } = await streamingPanel();
  await expect(panel.getByTestId('step-pos')).toHaveText(/^step 6 \/ 6\b/);
  await app.close(); // mid-stream
  // Was: the capture dropped, "Connected — waiting for agent streams" and "No agent streams yet — reload the page".
  await expect(panel.getByTestId('status')).toHaveText('The inspected tab was closed — what it captured stays here until this panel closes');
  await expect(row).toContainText('aborted');
  await expect(panel.getByTestId('bubble')).toContainText(words.slice(0, 4).join(''));
  gate.resolve();

  // One that captured nothing says so, rather than asking for a reload of a page that is gone.
  const other = await appWithPanel();
  await expect(other.panel.getByTestId('status')).toContainText('Capturing');
  await other.app.close();
  await expect(other.panel.getByTestId('empty')).toContainText('The inspected tab was closed.');
  await other.panel.close();
  await panel.close();
});

test('a live panel selects its first stream and its reply, again after a reload; the toolbar shows no tab id', async () => {
  const { app, panel, tabId } = await appWithPanel();
  await expect(panel.getByTestId('empty')).toBeVisible();
  await expect(panel.getByRole('toolbar', { name: 'Replyscope' })).not.toContainText(String(tabId)); // "tab 1369761062" meant nothing
  const total = frames().length;
  for (const round of [1, 2]) {
    gate = deferred();
    gate.resolve();
    await app.click('#go');
    await expect(app).toHaveTitle('done');
    const row = panel.locator('[data-conn]');
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute('aria-selected', 'true'); // nothing chosen: the first connection, as an import does
    await expect(panel.locator(`[data-reply="${REPLY}"]`)).toHaveAttribute('aria-selected', 'true');
    await expect(panel.getByTestId('step-pos'), `round ${round}`).toHaveText(new RegExp(`^step ${total} / ${total}\\b`));
    if (round === 1) {
      await app.reload(); // without Preserve log: a new capture, whose connection is a new one
      await expect(panel.getByTestId('empty')).toBeVisible();
    }
  }
  await panel.close();
  await app.close();
});

test('a fetch with none of its body read says so, naming both causes: an idle stream, or a page that holds it unread', async () => {
  gate = deferred();
  const { app, panel } = await appWithPanel();
  await app.evaluate(() => {
    (window as unknown as { held: Promise<Response> }).held = fetch('/stream');
  });
  const row = panel.locator('[data-conn]').first();
  await expect(row).toContainText('live');
  await row.click();
  const unread = panel.getByText('none of its body has reached the page');
  await expect(unread).toBeVisible();
  // The tap sees a body as the page reads it, so it cannot tell a page holding a stream unread from one reading an
  // idle stream (the demo's session stream, before the first message): it said only "does the page read response.body?".
  await expect(unread).toContainText('the server has sent nothing yet');
  await expect(unread).toContainText('or the page does not read it');
  // The page reads one chunk: its replies come, and the note goes.
  await app.evaluate(async () => {
    const res = await (window as unknown as { held: Promise<Response> }).held;
    await res.body!.getReader().read();
  });
  await expect(panel.getByTestId('replies')).toBeVisible();
  await expect(unread).toHaveCount(0);
  gate.resolve();
  await panel.close();
  await app.close();
});

test('a focused event list is not read out row by row as a followed stream arrives; it moves with the user', async () => {
  const { app, panel, row } = await streamingPanel();
  await row.click();
  await expect(panel.getByTestId('step-pos')).toHaveText(/^step 6 \/ 6\b/); // following the reply as it streams
  const list = panel.getByRole('grid', { name: 'Events' });
  await list.focus();
  const told = (await list.getAttribute('aria-activedescendant'))!;
  await expect(list.locator(`[id="${told}"]`)).toHaveAttribute('aria-selected', 'true'); // on focus: the selected row
  gate.resolve();
  await expect(row).toContainText('complete');
  const total = frames().length;
  await expect(panel.getByTestId('step-pos')).toHaveText(new RegExp(`^step ${total} / ${total}\\b`)); // it followed
  // Every arrival moved the selection; the row a screen reader is told of stayed (it was re-read at each event).
  await expect(list).toHaveAttribute('aria-activedescendant', told);
  await panel.keyboard.press('ArrowUp'); // the user's move is told
  const selected = list.locator('[role="row"][aria-selected="true"]');
  await expect(list).toHaveAttribute('aria-activedescendant', (await selected.getAttribute('id'))!);
  expect(await selected.getAttribute('id')).not.toBe(told);
  await panel.close();
  await app.close();
});

test('the record button reads as what a press does, with no pressed state that says the opposite', async () => {
  const { app, panel } = await appWithPanel();
  const toolbar = panel.getByRole('toolbar', { name: 'Replyscope' });
  // Recording: "Pause recording" (it was also "pressed", read as paused).
  await expect(toolbar.getByRole('button', { name: 'Pause recording' })).toBeVisible();
  await expect(toolbar.getByRole('button', { name: /recording/, pressed: true })).toHaveCount(0);
  await toolbar.getByRole('button', { name: 'Pause recording' }).click();
  await expect(toolbar.getByRole('button', { name: 'Resume recording' })).toBeVisible();
  await expect(toolbar.getByRole('button', { name: /recording/, pressed: true })).toHaveCount(0);
  await toolbar.getByRole('button', { name: 'Resume recording' }).click();
  await expect(toolbar.getByRole('button', { name: 'Pause recording' })).toBeVisible();
  await panel.close();
  await app.close();
});

test('at 800 px (DevTools docked below) the live toolbar keeps its controls on one row, Export… with them', async () => {
  const { app, panel } = await appWithPanel();
  await panel.setViewportSize({ width: 800, height: 500 });
  const toolbar = panel.getByRole('toolbar', { name: 'Replyscope' });
  const middleOf = async (name: string | RegExp, role: 'button' | 'checkbox' | 'searchbox') => {
    const box = (await toolbar.getByRole(role, { name }).boundingBox())!;
    expect(box.x + box.width, `${name} ends in the window`).toBeLessThanOrEqual(800);
    return box.y + box.height / 2;
  };
  await expect(toolbar.getByRole('checkbox', { name: 'Capture this site' })).toBeVisible();
  const row = await middleOf('Pause recording', 'button');
  const controls = [['Clear', 'button'], ['Preserve log', 'checkbox'], ['Capture this site', 'checkbox'], ['Filter connections by URL', 'searchbox'],
    ['Has errors', 'checkbox'], ['URLs…', 'button'], ['Import…', 'button'], ['Export…', 'button']] as const;
  for (const [name, role] of controls) expect(Math.abs((await middleOf(name, role)) - row), `${name} on the first row`).toBeLessThan(4);
  await middleOf('Keyboard shortcuts', 'button'); // the help, on the second row with the status, still in the window
  await panel.screenshot({ path: test.info().outputPath('live-toolbar-800.png') });
  await panel.close();
  await app.close();
});

for (const width of [360, 420, 480, 560]) {
  test(`docked to the side (${width} px) the live toolbar takes three rows at most, every control in the window and uncovered`, async () => {
    const { app, panel } = await appWithPanel();
    await panel.setViewportSize({ width, height: 700 });
    const toolbar = panel.getByRole('toolbar', { name: 'Replyscope' });
    await expect(toolbar.getByRole('checkbox', { name: 'Capture this site' })).toBeVisible();
    await expect(panel.getByTestId('status')).toContainText('Capturing http://127.0.0.1');
    const seen = await toolbar.evaluate((bar) => {
      const controls = [...bar.querySelectorAll<HTMLElement>('button, input:not([type="file"]), [data-testid="status"]')].filter((c) => c.getClientRects().length);
      const problems: string[] = [];
      const middles = controls.map((c) => {
        const b = c.getBoundingClientRect();
        const name = c.getAttribute('aria-label') ?? (c.closest('label')?.textContent?.trim() || c.textContent?.trim() || c.tagName);
        if (b.left < 0 || b.right > innerWidth + 0.5) problems.push(`${name} past the window`);
        const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
        if (!hit || !(hit === c || c.contains(hit) || hit.contains(c))) problems.push(`${name} covered by ${hit?.outerHTML.slice(0, 80)}`);
        return b.top + b.height / 2;
      }).sort((a, b) => a - b);
      const rows = middles.reduce<number[]>((lines, m) => (lines.length && m - lines[lines.length - 1] < 8 ? lines : [...lines, m]), []);
      const middle = (el: Element) => { const b = el.getBoundingClientRect(); return b.top + b.height / 2; };
      const statusRow = Math.abs(middle(bar.querySelector('[data-testid="status"]')!) - middle(bar.querySelector('[aria-label="Keyboard shortcuts"]')!)) < 8;
      // 2.5.8 Target Size: a target under 24 × 24 px has a 24 px circle around its middle that meets no other target
      // (nor another such circle) — the wrapped rows stood 3 px apart, a checkbox's circle reaching the row below.
      const targets = controls.filter((c) => c.dataset.testid !== 'status').map((c) => c.getBoundingClientRect());
      const small = (b: DOMRect) => b.width < 24 || b.height < 24;
      const mid = (b: DOMRect) => [b.left + b.width / 2, b.top + b.height / 2];
      const crowded = targets.filter((t) => small(t) && targets.some((o) => {
        if (o === t) return false;
        const [x, y] = mid(t);
        if (small(o)) return Math.hypot(x - mid(o)[0], y - mid(o)[1]) < 24;
        return Math.hypot(x - Math.max(o.left, Math.min(x, o.right)), y - Math.max(o.top, Math.min(y, o.bottom))) < 12;
      })).length;
      return { problems, rows: rows.length, crowded, statusRow };
    });
    expect(seen.problems).toEqual([]);
    expect(seen.rows).toBeLessThanOrEqual(3);
    expect(seen.crowded, 'targets too close to another').toBe(0);
    expect(seen.statusRow, 'the status and help on one row').toBe(true);
    await panel.screenshot({ path: test.info().outputPath(`live-toolbar-${width}.png`) });
    await panel.close();
    await app.close();
  });
}

test('at 800 px the toolbar keeps its row with an include list of twelve and a three-digit cap in the buttons', async () => {
  const { app, panel } = await appWithPanel();
  await panel.setViewportSize({ width: 800, height: 500 });
  const toolbar = panel.getByRole('toolbar', { name: 'Replyscope' });
  // Twelve patterns (matching nothing here) and the largest cap: the buttons read "URLs (12)…" and "Cap 128 MB…".
  await toolbar.getByTestId('include-open').click();
  const patterns = Array.from({ length: 12 }, (_, i) => `https://agent-${i}.example/*/stream`);
  await panel.getByTestId('include-dialog').getByRole('textbox').fill(patterns.join('\n'));
  await panel.getByTestId('include-save').click();
  await setCaptureLimit(ext, 128 * 1024 * 1024);
  await expect(toolbar.getByTestId('include-open').locator('.narrow-label')).toHaveText('URLs (12)…');
  await expect(toolbar.getByTestId('cap-open').locator('.narrow-label')).toHaveText('Cap 128 MB…');
  // A button's name is the label it shows (a speech user says what they see; axe: label-content-name-mismatch).
  await expect(toolbar.getByTestId('include-open')).toHaveAccessibleName('URLs (12)…');
  await expect(toolbar.getByTestId('cap-open')).toHaveAccessibleName('Cap 128 MB…');
  const middle = async (locator: Locator) => {
    const box = (await locator.boundingBox())!;
    return box.y + box.height / 2;
  };
  const row = await middle(toolbar.getByRole('button', { name: 'Pause recording' }));
  // Export… went to the second row (beside the status) once the count was in the button.
  for (const button of [toolbar.getByTestId('include-open'), toolbar.getByTestId('cap-open'), toolbar.getByRole('button', { name: 'Import…' }), toolbar.getByRole('button', { name: 'Export…' })]) {
    expect(Math.abs((await middle(button)) - row), `${await button.innerText()} on the first row`).toBeLessThan(4);
  }
  // The URL filter gave way, down to the width its placeholder ("Filter URL") needs beside the field's clear button.
  expect((await toolbar.getByRole('searchbox', { name: 'Filter connections by URL' }).boundingBox())!.width).toBeGreaterThanOrEqual(80);
  await panel.screenshot({ path: test.info().outputPath('live-toolbar-800-settings.png') });
  await toolbar.getByTestId('include-open').click();
  await panel.getByTestId('include-dialog').getByRole('textbox').fill('');
  await panel.getByTestId('include-save').click();
  await setCaptureLimit(ext, null);
  await panel.close();
  await app.close();
});

test('a failed save of the include list says so out loud, and focus stays on Save for another try', async () => {
  const { app, panel } = await appWithPanel();
  // The storage refuses the write (a full quota) — when the test says so, so the save is pending meanwhile: injected
  // in the panel's own page.
  await panel.evaluate(() => {
    chrome.storage.local.set = (() => new Promise((_, reject) => {
      (window as unknown as { failSave: () => void }).failSave = () => reject(new Error('QUOTA_BYTES quota exceeded'));
    })) as never;
  });
  await panel.getByTestId('include-open').click();
  const dialog = panel.getByTestId('include-dialog');
  await dialog.getByRole('textbox').fill('/api/chat');
  await dialog.getByTestId('include-save').focus();
  await panel.keyboard.press('Enter');
  await expect(dialog.getByTestId('include-save')).toHaveAttribute('aria-disabled', 'true'); // saving
  await expect(dialog.getByTestId('include-save')).toBeFocused();
  await panel.evaluate(() => (window as unknown as { failSave: () => void }).failSave());
  await expect(dialog.getByRole('alert')).toContainText('QUOTA_BYTES quota exceeded');
  await expect(dialog.getByTestId('include-save')).toBeFocused();
  await panel.keyboard.press('Escape');
  await panel.close();
  await app.close();
});

/** What the empty panel says, its paragraphs and its demo line, once it names the inspected page's site. */
async function emptyWordsOf(panel: Page): Promise<{ host: string | null; text: string; demo: string }> {
  const empty = panel.getByTestId('empty');
  await expect(empty.locator('strong')).toHaveText(`No agent streams yet on ${new URL(server.url).host}`);
  return { host: await empty.getAttribute('data-host'), text: (await empty.locator(':scope > strong, :scope > p:not(.empty-demo)').allTextContents()).join('\n'), demo: await empty.getByTestId('empty-demo').innerText() };
}

test('the empty panel opened as a tab speaks to the inspected page: what is captured, what is not, how to import; the demo last', async () => {
  const { app, panel } = await appWithPanel();
  const words = await emptyWordsOf(panel);
  expect(words.host).toBe('tab');
  // (It said "No agent streams yet — reload the page or open the demo.", whatever the page.)
  expect(words.text).not.toMatch(/demo/i);
  expect(words.text).toContain("Use the inspected tab's page");
  expect(words.text).toContain('one that started before this panel was opened is here too');
  expect(words.text).toContain('requests made inside a Worker, and sockets that carry no AgentScope or pi event');
  expect(words.text).toContain('a HAR saved from the Network panel');
  expect(words.demo).toContain('npm run demo');
  // Its button opens the file chooser, as the toolbar's Import… does.
  const chooser = panel.waitForEvent('filechooser');
  await panel.getByTestId('empty').getByRole('button', { name: 'Import a file…' }).click();
  expect((await chooser).isMultiple()).toBe(true);
  await panel.close();
  await app.close();
});

test('the empty panel inside DevTools (its page has chrome.devtools) speaks of the page and of DevTools', async () => {
  const app = await ext.context.newPage();
  await app.goto(`${server.url}/app`);
  const tabId = await ext.tabIdFor(app);
  const panel = await ext.context.newPage();
  // What the panel's page has inside DevTools, and only there (the devtools page creates it with the same URL).
  await panel.addInitScript((id) => ((chrome as unknown as { devtools: unknown }).devtools = { inspectedWindow: { tabId: id } }), tabId);
  await panel.goto(`chrome-extension://${ext.extensionId}/panel/index.html?tabId=${tabId}`);
  const words = await emptyWordsOf(panel);
  expect(words.host).toBe('devtools');
  expect(words.text).not.toMatch(/demo/i);
  expect(words.text).toContain('Use the page —');
  expect(words.text).toContain('one that started before DevTools was opened is here too');
  expect(words.text).toContain('Reloading the page captures its streams');
  await panel.close();
  await app.close();
});

test('a fast stream (20k events written as fast as the socket takes them) arrives complete and in order', async () => {
  const { app, panel } = await appWithPanel();
  await expect(panel.getByTestId('empty')).toBeVisible();
  await app.evaluate(() => fetch('/burst').then((r) => r.text()).then(() => (document.title = 'burst done')));
  const row = panel.locator('[data-conn]').first();
  await row.click(); // selected while it streams: the panel follows the newest step
  await expect(app).toHaveTitle('burst done');
  await expect(row).toContainText('complete');
  const total = BURST + 4;
  await expect(row).toContainText(String(total));
  await expect(panel.getByTestId('step-pos')).toHaveText(new RegExp(`^step ${total} / ${total}\\b`));
  // A long text: the bubble lays out its head and tail (LongText) and says how much it left out.
  expect(await bubbleTextBlocks(panel)).toEqual([expectedShown(Array.from({ length: BURST }, (_, j) => `${j} `).join(''))]);
  await panel.close();
  await app.close();
});

test('a file imported into the extension\'s panel is read in its import worker (chrome-extension://, the extension\'s CSP)', async () => {
  const app = await ext.context.newPage();
  await app.goto(`${server.url}/app`);
  const panel = await ext.context.newPage();
  await watchImportWorker(panel);
  await panel.goto(`chrome-extension://${ext.extensionId}/panel/index.html?tabId=${await ext.tabIdFor(app)}`);
  await expect(panel.getByTestId('empty')).toBeVisible();
  await panel.getByTestId('import-input').setInputFiles({ name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(writeCaptureLog(sampleCapture())) });
  await expect(panel.getByTestId('status')).toHaveText(/^Imported sample\.replyscope\.ndjson: \d+ connections$/);
  const seen = await importWorkerSeen(panel);
  expect(seen.workers).toEqual(['replyscope-import']);
  expect(seen.posted).toMatchObject({ records: 1, read: 1 });
  expect(seen.parsedHere).toBe(0);
  await panel.close();
  await app.close();
});

test('a file imported into a live panel stays, with its file named, when the extension sends the capture anew (its service worker restarted) and after a reload', async () => {
  gate = deferred();
  gate.resolve(); // (streams run to their end)
  const { app, panel } = await appWithPanel();
  /** The app's stream run once more: `n` of them listed, complete. */
  const go = async (n: number) => {
    await app.click('#go');
    await expect(panel.locator(`[data-conn][title*="${server.url}/stream"]`).filter({ hasText: 'complete' })).toHaveCount(n);
  };
  await go(1);
  const name = 'sample.replyscope.ndjson';
  await panel.getByTestId('import-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(writeCaptureLog(sampleCapture())) });
  await expect(panel.getByTestId('status')).toHaveText(`Imported ${name}: 3 connections`);
  const files = panel.getByTestId('conn-file');
  const imported = [name, name, name];
  await expect(files).toHaveText(['—', ...imported]);

  // The panel reconnects to a fresh service worker, which sends it the tab's capture anew (the page holds it): the
  // reset replaced the file's rows with the rest. A stream after it: its records come after the capture sent anew.
  await ext.restartServiceWorker();
  await go(2);
  await expect(files).toHaveText(['—', ...imported, '—']);

  // A reload (no Preserve log): the page that was left goes, the file stays, above the new page's stream.
  await app.reload();
  await expect(files).toHaveCount(0); // (the file alone: no File column)
  await go(1);
  await expect(files).toHaveText([...imported, '—']);
  await panel.screenshot({ path: test.info().outputPath('imported-file-after-reload.png') });
  await panel.close();
  await app.close();
});

test('a page without the capture (a data: URL here; also every tab open before the extension was reloaded) is named, not waited on', async () => {
  const app = await ext.context.newPage();
  await app.goto(`${server.url}/app`);
  const tabId = await ext.tabIdFor(app);
  await app.goto('data:text/html,<title>no extension here</title>'); // content scripts never run in data: pages
  const panel = await ext.panelPage(tabId);
  await expect(panel.getByTestId('empty')).toContainText('Replyscope is not running in this page — reload it to capture its streams.');
  await expect(panel.getByTestId('status')).toContainText('not running in this page');
  await panel.screenshot({ path: test.info().outputPath('page-unreachable.png') });
  // Back on a page the extension runs in: the notice goes away by itself.
  await app.goto(`${server.url}/app`);
  await expect(panel.getByTestId('empty')).toContainText('No agent streams yet');
  await expect(panel.getByTestId('status')).not.toContainText('not running in this page');
  await panel.close();
  await app.close();
});
