// Data blocks in the bubble of the standalone viewer: an image streamed in DATA_BLOCK_DELTA chunks is part of an
// image at every step before its last — the bubble says so instead of showing the browser's broken-image icon.
import { expect, test } from '@playwright/test';
import { useViewer } from './support/viewer.ts';

const viewer = useViewer('media');

/** A valid 16×16 PNG (RGB gradient). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAABlklEQVR4nA3LQQEAIQgAQSMQwQhEIIIRjEAEIhjBCETguU8jGMEId/Of1hrS6A1tWGM0ZsMb0ViN3chGNU7jNl6jNUGELqhgwhCm4EIIS9hCCiUc4QpP/tCRTu9oxzqjMzveic7q7E52qnM6t/P6HxRRuqKKKUOZiiuhLGUrqZRylKs8/YMhRjfUMGMY03AjjGVsI40yjnGNZ38YyKAPdGCDMZgDH8RgDfYgBzU4gzt44w8TmfSJTmwyJnPik5isyZ7kpCZncidv/sERpzvqmDOc6bgTznK2k045x7nO8z8EEvRAAwtGMAMPIljBDjKo4AQ3ePGHhSz6Qhe2GIu58EUs1mIvclGLs7iLt/6wkU3f6MY2YzM3vonN2uxNbmpzNnfz9h8SSXqiiSUjmYknkaxkJ5lUcpKbvPxDIUUvtLBiFLPwIopV7CKLKk5xi1d/OMihH/Rgh3GYBz/EYR32IQ91OId7eOcPF7n0i17sMi7z4pe4rMu+5KUu53Iv7/7hIY/+0Ic9xmM+/BGP9diPfNTjPO7jPT6GdLgQ6NhxmQAAAABJRU5ErkJggg==',
  'base64',
);

test('a streamed image: its first chunk alone reads as incomplete, with its size; the whole image is drawn', async () => {
  const ev = (type: string, extra: Record<string, unknown> = {}) => ({ type, reply_id: 'r', created_at: '2026-12-01T09:00:00', ...extra });
  const chunk = (b: Buffer) => ev('DATA_BLOCK_DELTA', { block_id: 'img', media_type: 'image/png', data: b.toString('base64') });
  const events = [
    ev('REPLY_START', { session_id: 's', name: 'painter' }),
    ev('DATA_BLOCK_START', { block_id: 'img', media_type: 'image/png' }),
    chunk(PNG.subarray(0, 30)),
    chunk(PNG.subarray(30)),
    ev('DATA_BLOCK_END', { block_id: 'img' }),
    ev('REPLY_END', { session_id: 's' }),
  ];
  const page = await viewer.open();
  const body = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
  await page.getByTestId('import-input').setInputFiles({ name: 'image.sse', mimeType: 'text/event-stream', buffer: Buffer.from(body) });
  await expect(page.getByTestId('status')).toContainText('Imported image.sse');
  await page.locator('[data-conn]').first().click();
  const block = page.getByTestId('bubble').locator('[data-block-type="data"]');

  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('step-pos')).toHaveText(/^step 3 \/ 6\b/);
  await expect(block.locator('[data-undecodable]')).toHaveText(/^image\/png · 30 bytes — the browser cannot decode them/);
  await expect(block.locator('img')).toHaveCount(0);

  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('step-pos')).toHaveText(/^step 4 \/ 6\b/);
  const img = block.locator('img');
  await expect(img).toHaveAttribute('src', `data:image/png;base64,${PNG.toString('base64')}`);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(16);
  await expect(block.locator('[data-undecodable]')).toHaveCount(0);
  await page.close();
});
