/// <reference types="vite/client" />
// Imported first by the relay, before any schema is used. zod probes once per realm whether it may compile its
// checks (`new Function("")`, caught). In Firefox the content script's CSP forbids that, and Firefox reports the
// blocked call in the *page's* web console — "EvalError: call to Function() blocked by CSP", once for every frame,
// on every site. Under `jitless` zod skips the probe and checks as it would after a failed one: nothing changes but
// the console. Firefox build only: Chromium lets the isolated world compile (no report there), and keeps that.
import { z } from 'zod';

if (import.meta.env.MODE === 'firefox') z.config({ jitless: true });
