// Entry of the import worker: a dedicated Web Worker the panel starts for each file it imports (import-file.ts), so
// that the file is read — bytes to text to capture records, the core's readers — off the page's thread. The bundlers
// (crxjs for dist/panel, vite for the standalone viewer) emit it as a script of its own, loaded from the panel's
// origin: the extension's CSP (script-src 'self') lets it run.
import { importReadService } from './import-worker-serve.ts';

const scope = globalThis as unknown as { postMessage(message: unknown): void; onmessage: ((event: MessageEvent) => void) | null };
const handle = importReadService((message) => scope.postMessage(message));
scope.onmessage = (event) => handle(event.data);
