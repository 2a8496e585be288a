// The scrubber: a slider over the steps of the selected reply, step buttons, diagnostic jumps and playback.
// Seeking only calls history.at(k) (checkpointed in the core); nothing is replayed here.
import { useEffect, useState } from 'preact/hooks';
import { Icon } from './Icon.tsx';
import { diagnosticSteps, nextIn, playDelay, type Speed } from '../store/steps.ts';
import type { PanelStore } from '../store/store.ts';

/** Keyboard map shared by the slider and the app-wide handler. Returns true when the key was used. */
export function scrubberKey(store: PanelStore, e: KeyboardEvent): boolean {
  const reply = store.selectedReply.value;
  const conn = store.selectedConnection.value;
  if (!reply || !conn || e.ctrlKey || e.metaKey || e.altKey) return false;
  const k = store.step.value;
  switch (e.key) {
    case 'ArrowLeft':
      store.seek(k - (e.shiftKey ? 10 : 1));
      return true;
    case 'ArrowRight':
      store.seek(k + (e.shiftKey ? 10 : 1));
      return true;
    case 'Home':
      store.seek(0);
      return true;
    case 'End':
      store.seek(reply.history.length - 1);
      return true;
    case ']':
    case '[': {
      const to = nextIn(diagnosticSteps(conn, reply), k, e.key === ']' ? 1 : -1);
      if (to !== undefined) store.seek(to);
      return true;
    }
    default:
      return false;
  }
}

export function Scrubber({ store }: { store: PanelStore }) {
  const reply = store.selectedReply.value;
  const conn = store.selectedConnection.value;
  const k = store.step.value;
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<Speed>(1);

  useEffect(() => {
    if (!playing || !reply || !conn) return;
    if (k >= reply.history.length - 1) {
      setPlaying(false);
      return;
    }
    const delay = playDelay(conn, reply, k, speed);
    const advance = () => store.seek(k + 1);
    if (delay === 0 && typeof requestAnimationFrame === 'function') {
      const id = requestAnimationFrame(advance);
      return () => cancelAnimationFrame(id);
    }
    const id = setTimeout(advance, delay);
    return () => clearTimeout(id);
  }, [playing, k, reply, speed]);

  if (!reply || !conn) {
    return (
      <div class="scrubber">
        <span class="dim">Select a reply to scrub through its events.</span>
      </div>
    );
  }
  const n = reply.history.length;
  const min = reply.history.evictedBefore;
  const diags = diagnosticSteps(conn, reply);
  const prevDiag = nextIn(diags, k, -1);
  const nextDiag = nextIn(diags, k, 1);
  const eventIndex = reply.eventIndices[k];
  const status = reply.stepStatus[k];

  return (
    <div class="scrubber" data-testid="scrubber">
      <button title="First step (Home)" aria-label="First step" onClick={() => store.seek(min)} disabled={k <= min}><Icon name="first" /></button>
      <button title="Previous step (←, Shift+← = 10)" aria-label="Previous step" onClick={() => store.seek(k - 1)} disabled={k <= min}><Icon name="prev" /></button>
      <button
        title={playing ? 'Pause' : 'Play from here'}
        aria-label={playing ? 'Pause' : 'Play'}
        onClick={() => {
          if (!playing && k >= n - 1) store.seek(min);
          setPlaying(!playing);
        }}
      >
        <Icon name={playing ? 'pause' : 'play'} />
      </button>
      <button title="Next step (→, Shift+→ = 10)" aria-label="Next step" onClick={() => store.seek(k + 1)} disabled={k >= n - 1}><Icon name="next" /></button>
      <button title="Last step (End)" aria-label="Last step" onClick={() => store.seek(n - 1)} disabled={k >= n - 1}><Icon name="last" /></button>
      <select aria-label="Playback speed" value={String(speed)} onChange={(e) => {
        const v = (e.currentTarget as HTMLSelectElement).value;
        setSpeed(v === 'max' ? 'max' : (Number(v) as 1 | 4));
      }}>
        <option value="1">1× (recorded)</option>
        <option value="4">4×</option>
        <option value="max">max</option>
      </select>
      <input
        type="range"
        aria-label="Step"
        data-testid="step-slider"
        min={min}
        max={Math.max(min, n - 1)}
        value={k}
        onInput={(e) => store.seek(Number((e.currentTarget as HTMLInputElement).value))}
        onKeyDown={(e) => {
          if (scrubberKey(store, e)) {
            e.preventDefault();
            e.stopPropagation();
          }
        }}
      />
      <span class="pos" data-testid="step-pos">
        step {k + 1} / {n}
        {min > 0 ? <span class="warn" title="Older events were evicted (memory cap)"> ({min} evicted)</span> : null}
      </span>
      <span class="dim mono" title="Connection event index · step status">
        #{eventIndex} · <span class={status === 'changed' ? 'ok' : status === 'unchanged' ? 'dim' : 'err'}>{status}</span>
      </span>
      <button title="Previous diagnostic ([)" aria-label="Previous diagnostic" disabled={prevDiag === undefined} onClick={() => prevDiag !== undefined && store.seek(prevDiag)}>
        <Icon name="warnPrev" /><Icon name="prev" size={9} />
      </button>
      <button title="Next diagnostic (])" aria-label="Next diagnostic" disabled={nextDiag === undefined} onClick={() => nextDiag !== undefined && store.seek(nextDiag)}>
        <Icon name="next" size={9} /><Icon name="warnPrev" />
      </button>
      <span class="dim">{diags.length} diag</span>
    </div>
  );
}
