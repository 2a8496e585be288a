// Derives the Firefox manifest from the one manifest source (manifest.json, written for Chromium).
// Firefox MV3 runs background scripts as an event page (no service worker), needs a gecko id, and — to lint clean
// on current AMO rules — data_collection_permissions (Firefox ≥ 140) and a gecko_android minimum of 142.
// `message_serialization` is Chromium's opt-in to structured-clone messaging, which Firefox always uses.

export const GECKO_ID = 'replyscope@replyscope.dev';

type Json = Record<string, unknown>;

export function firefoxManifest(chromium: Json): Json {
  const { minimum_chrome_version: _chromeOnly, message_serialization: _chromeOpt, background, ...rest } = chromium;
  const worker = (background as { service_worker?: unknown } | undefined)?.service_worker;
  if (typeof worker !== 'string') throw new Error('manifest.json: background.service_worker must name the background script');
  return {
    ...rest,
    background: { scripts: [worker], type: 'module' },
    browser_specific_settings: {
      gecko: {
        id: GECKO_ID,
        strict_min_version: '140.0',
        // Captured data never leaves the browser.
        data_collection_permissions: { required: ['none'] },
      },
      gecko_android: { strict_min_version: '142.0' },
    },
  };
}
