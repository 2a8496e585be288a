// The reconstructed message as a chat bubble, as it stood after the selected step.
// Renders AgentScope Msg blocks (text, thinking, data, tool_call, tool_result, hint) and pi AssistantMessage blocks
// (text, thinking, toolCall, image). Everything captured is rendered as text nodes — markdown stays text, nothing
// becomes HTML — and only validated data: URLs (built here) or explicitly clicked http(s) URLs become media sources.
import { memo } from 'preact/compat';
import { useState } from 'preact/hooks';
import { shownString } from '../../src/core/diagnostics/shown.ts';
import { Icon } from './Icon.tsx';
import { formatUsage } from '../lib/format.ts';
import { elideInline, prettyValue } from '../lib/elide.ts';
import { prettyJsonText } from '../lib/partial-json-view.ts';
import { LongPre, LongText } from './LongText.tsx';
import { mediaKind, safeDataUrl, safeRemoteUrl } from '../lib/safe-url.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const s = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export interface BubbleProps {
  message: unknown;
  /** Content indices the current event touched. */
  touched: readonly number[];
  /** Per touched block: field path below the block → the characters this event appended there. */
  appended: ReadonlyMap<number, ReadonlyMap<string, string>>;
}

function Media({ source, name }: { source: unknown; name?: string }) {
  const [load, setLoad] = useState(false);
  if (!isObj(source)) return <div class="err">data block without a source</div>;
  const mediaType = s(source.media_type) ?? s(source.mimeType) ?? '';
  const kind = mediaKind(mediaType);
  if (source.type === 'url' || typeof source.url === 'string') {
    const url = safeRemoteUrl(source.url);
    if (!url) return <div class="warn">Not loaded: {shownString(source.url)} (only http/https URLs are loaded)</div>;
    if (!load) {
      return (
        <button class="load-remote" onClick={() => setLoad(true)} title="Fetches the URL from the network">
          Load remote {kind} · {url}
        </button>
      );
    }
    return <MediaElement kind={kind} src={url} label={name ?? url} />;
  }
  const data = s(source.data) ?? '';
  const src = safeDataUrl(mediaType, data);
  if (!src) {
    return (
      <div class="warn">
        {mediaType || 'unknown type'} · {data.length} base64 chars{data.length ? ' (not valid base64 — not rendered)' : ''}
      </div>
    );
  }
  const bytes = Math.floor((data.replace(/\s+/g, '').length * 3) / 4) - (data.match(/=/g)?.length ?? 0);
  return <MediaElement kind={kind} src={src} label={name ?? mediaType} undecodable={`${mediaType} · ${bytes.toLocaleString('en-US')} bytes`} />;
}

/**
 * `undecodable`: what to say of inline bytes the browser cannot decode. A data block streamed in chunks holds part of
 * its image at every step before the last one — and a server may send bytes that are not the media type it names —
 * and such an image showed as the browser's broken-image icon, which reads as a fault of the viewer.
 */
function MediaElement({ kind, src, label, undecodable }: { kind: ReturnType<typeof mediaKind>; src: string; label: string; undecodable?: string }) {
  const [failed, setFailed] = useState<string | undefined>(undefined);
  if (failed === src && undecodable) {
    return <div class="warn" data-undecodable="">{undecodable} — the browser cannot decode them (incomplete, still streaming, or not that type)</div>;
  }
  const onError = () => setFailed(src);
  if (kind === 'image') return <img src={src} alt={label} onError={onError} />;
  if (kind === 'audio') return <audio controls src={src} aria-label={label} onError={onError} />;
  if (kind === 'video') return <video controls src={src} aria-label={label} onError={onError} />;
  return <span class="dim">{label} (binary, not previewed)</span>;
}

function ToolInput({ raw, appended }: { raw: unknown; appended?: string }) {
  // pi keeps parsed arguments (an object, or whatever the best-effort parse gave); AgentScope keeps raw JSON text.
  if (typeof raw !== 'string') {
    return (
      <pre class="tool-input" data-state="parsed">
        <LongText text={prettyValue(raw)} />
      </pre>
    );
  }
  const pretty = prettyJsonText(raw);
  return (
    <>
      <pre class="tool-input" data-state={pretty.state}>
        <LongText text={pretty.text} />
      </pre>
      <div class="dim">
        {pretty.state === 'partial' ? 'partial JSON (still streaming or cut off)' : pretty.state === 'invalid' ? 'not JSON' : pretty.state === 'unformatted' ? `not formatted (${raw.length.toLocaleString('en-US')} chars)` : ''}
        {appended ? (
          <>
            {pretty.state === 'partial' || pretty.state === 'invalid' ? ' · ' : ''}appended <mark class="appended mono">{elideInline(appended, 2000)}</mark>
          </>
        ) : null}
      </div>
    </>
  );
}

/**
 * One content block. Memoised: consecutive steps share the blocks an event did not touch (the reducer copies only
 * what changes), so a seek re-renders the touched block instead of every block of a long message.
 */
const Block = memo(function Block({ block, appended, touched }: { block: unknown; appended?: ReadonlyMap<string, string>; touched: boolean }) {
  if (block === null || block === undefined) return <div class="block dim">(empty slot)</div>;
  if (!isObj(block)) return <LongPre class="block" text={prettyValue(block)} />;
  const type = s(block.type) ?? '?';
  const id = s(block.id);
  const cls = `block${touched ? ' touched' : ''}`;
  const head = (label: preact.ComponentChildren, extra?: preact.ComponentChildren) => (
    <div class="block-head">
      <b>{label}</b>
      {id ? <span class="mono">{id}</span> : null}
      {extra}
    </div>
  );
  switch (type) {
    case 'text':
      return (
        <div class={`${cls} kind-text`} data-block-type="text">
          <div class="block-text">
            <LongText text={s(block.text) ?? ''} appended={appended?.get('text')} />
          </div>
        </div>
      );
    case 'thinking': {
      const text = s(block.thinking) ?? '';
      return (
        <div class={`${cls} kind-thinking`} data-block-type="thinking">
          <details open>
            <summary>
              Thinking · {text.length} chars{block.redacted ? ' · redacted' : ''}
            </summary>
            <div class="block-text dim">
              <LongText text={text} appended={appended?.get('thinking')} />
            </div>
          </details>
        </div>
      );
    }
    case 'tool_call':
    case 'toolCall': {
      const state = s(block.state);
      const input = type === 'toolCall' ? (block.partialJson !== undefined ? block.partialJson : block.arguments) : block.input;
      return (
        <div class={`${cls} kind-tool-call`} data-block-type="tool_call">
          {head(<><Icon name="tool" /> {s(block.name) ?? '(unnamed tool)'}</>, state ? <span class="badge">{state}</span> : null)}
          <ToolInput raw={input} appended={appended?.get('input') ?? appended?.get('partialJson')} />
        </div>
      );
    }
    case 'tool_result': {
      const output = block.output;
      const state = s(block.state);
      return (
        <div class={`${cls} kind-tool-result`} data-block-type="tool_result">
          {head(`result · ${s(block.name) ?? '?'}`, state ? <span class={`badge ${state === 'error' || state === 'denied' ? 'error' : ''}`}>{state}</span> : null)}
          {typeof output === 'string' ? (
            <div class="block-text">
              <LongText text={output} appended={appended?.get('output')} />
            </div>
          ) : Array.isArray(output) ? (
            output.map((b, i) => <NestedBlock key={i} block={b} appended={appended?.get(`output/${i}/text`)} />)
          ) : (
            <LongPre text={prettyValue(output)} />
          )}
        </div>
      );
    }
    case 'data':
    case 'image': {
      const source = type === 'image' ? { type: 'base64', media_type: block.mimeType, data: block.data } : block.source;
      return (
        <div class={`${cls} kind-data media`} data-block-type="data">
          {head(s(block.name) ?? 'data', isObj(source) ? <span class="dim">{s(source.media_type)}</span> : null)}
          <Media source={source} name={s(block.name)} />
        </div>
      );
    }
    case 'hint': {
      const hint = block.hint;
      return (
        <div class={`${cls} kind-hint`} data-block-type="hint">
          {head('hint', <span class="dim">source: {s(block.source) ?? 'none'}</span>)}
          {typeof hint === 'string' ? (
            <div class="block-text">{hint}</div>
          ) : Array.isArray(hint) ? (
            hint.map((b, i) => <NestedBlock key={i} block={b} />)
          ) : (
            <LongPre text={prettyValue(hint)} />
          )}
        </div>
      );
    }
    default:
      return (
        <div class={cls}>
          {head(type)}
          <LongPre text={prettyValue(block)} />
        </div>
      );
  }
});

/** Blocks inside tool results and hints (text or data). */
function NestedBlock({ block, appended }: { block: unknown; appended?: string }) {
  if (isObj(block) && block.type === 'text') {
    return (
      <div class="block-text">
        <LongText text={s(block.text) ?? ''} appended={appended} />
      </div>
    );
  }
  if (isObj(block) && block.type === 'data') {
    return (
      <div class="media">
        <Media source={block.source} name={s(block.name)} />
      </div>
    );
  }
  return <LongPre text={prettyValue(block)} />;
}

/**
 * A reply's error as a line to read: `{"type": "rate_limit", "message": "…"}` (AgentScope's usual shape) reads
 * "rate_limit: …"; any other shape is shown as its JSON (the JSON tab has it whole either way).
 */
function errorLine(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error !== null && typeof error === 'object' && !Array.isArray(error)) {
    const e = error as Record<string, unknown>;
    const message = typeof e.message === 'string' ? e.message : undefined;
    const kind = typeof e.type === 'string' ? e.type : typeof e.code === 'string' ? e.code : undefined;
    const rest = Object.keys(e).filter((k) => k !== 'message' && k !== 'type' && k !== 'code');
    if (message !== undefined && rest.length === 0) return kind ? `${kind}: ${message}` : message;
  }
  return prettyValue(error);
}

export function MessageBubble({ message, touched, appended }: BubbleProps) {
  if (!isObj(message)) return <div class="empty">No message at this step.</div>;
  const content = Array.isArray(message.content) ? message.content : [];
  const reason = s(message.finished_reason) ?? s(message.stopReason);
  const error = message.error ?? message.errorMessage;
  const who = s(message.name) ?? s(message.role) ?? 'message';
  const model = s(message.model);
  return (
    <div class="bubble-wrap">
      <div class="bubble" data-testid="bubble">
        <div class="bubble-head">
          <span class="who">{who}</span>
          {message.role && message.name ? <span class="dim">{shownString(message.role)}</span> : null}
          {model ? <span class="dim">{model}</span> : null}
          {reason ? <span class={`badge ${reason === 'completed' || reason === 'stop' ? '' : 'warning'}`}>{reason}</span> : null}
          {message.usage ? <span class="dim">{formatUsage(message.usage)}</span> : null}
        </div>
        {content.length === 0 ? <div class="dim">(no content yet)</div> : null}
        {content.map((b, i) => (
          <Block key={i} block={b} touched={touched.includes(i)} appended={appended.get(i)} />
        ))}
        {error !== undefined && error !== null && error !== '' ? (
          <div class="error-box"><LongText text={errorLine(error)} /></div>
        ) : null}
      </div>
    </div>
  );
}
