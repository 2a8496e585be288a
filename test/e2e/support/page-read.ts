// Reading a stream inside a page the way an app does (fetch + reader), reporting only its length and SHA-256 — so a
// test compares what the page got with what the server sent without moving megabytes through Playwright.
import type { Frame, Page } from '@playwright/test';

export interface PageRead {
  len: number;
  sha: string;
  /** The read failed (network error, abort): what was read until then is in len/sha. */
  error?: string;
}

export function readAllInPage(target: Page | Frame, url: string): Promise<PageRead> {
  return target.evaluate(async (url) => {
    const parts: Uint8Array[] = [];
    let error: string | undefined;
    try {
      const reader = (await fetch(url)).body!.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
    } catch (e) {
      error = String(e);
    }
    const all = new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
    const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', all))].map((b) => b.toString(16).padStart(2, '0')).join('');
    return { len: all.length, sha: digest, ...(error ? { error } : {}) };
  }, url);
}
