// The part of event-source-polyfill (which ships no types) that client-library-page.ts uses.
declare module 'event-source-polyfill' {
  export class EventSourcePolyfill extends EventTarget {
    constructor(url: string, init?: { heartbeatTimeout?: number; Transport?: unknown; headers?: Record<string, string>; lastEventIdQueryParameterName?: string });
    readonly readyState: number;
    close(): void;
  }
}
