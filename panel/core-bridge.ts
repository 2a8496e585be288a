// The one place the panel imports the core from, so a core API change touches one file.
export { CaptureAnalyzer } from '../src/core/analysis/analyze.ts';
export { ERROR_BODY_RECORDED_BYTES } from '../src/core/capture/model.ts';
export { base64ToBytes } from '../src/core/frames/utf8-chunks.ts';
export { inputTooLarge, loadInput, InputError, MAX_INPUT_BYTES } from '../src/core/capture/load-input.ts';
export { captureLogParts, writeCaptureLog } from '../src/core/capture/capture-log.ts';
export { CAPTURE_LOG_HEAD_BYTES, CaptureLogStream, startsAsCaptureLog } from '../src/core/capture/capture-log-stream.ts';
export { writeHar } from '../src/core/capture/har.ts';
export { harParts } from '../src/core/capture/har-parts.ts';
export { jsonParts, PAUSE, type Pause, type WorkProgress } from '../src/core/capture/json-parts.ts';
export {
  bodySchema, chunkSchema, connectionSchema, endSchema, evictedSchema, headerSchema, messageSchema, navigationSchema, noticeSchema,
} from '../src/core/capture/schemas.ts';
export { redactCapture, redactSteps, type RedactOptions as RedactionOptions } from '../src/core/capture/redact.ts';
export { diagnosticDoc } from '../src/core/diagnostics/catalog.ts';
export { ReadableCopies } from '../src/core/history/readable-copies.ts';
