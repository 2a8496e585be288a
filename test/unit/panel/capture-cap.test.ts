// The memory cap dialog's reading of its field (panel/lib/capture-cap.ts): MB in, bytes out within the setter's
// bounds, a sentence for anything else; and what it says before a lower cap is saved.
import { describe, expect, it } from 'vitest';
import { capMB, lowerCapWarning, readCapField, readCapInput } from '../../../panel/lib/capture-cap.ts';
import { MAX_CAPTURE_LIMIT_BYTES, MIN_CAPTURE_LIMIT_BYTES, setCaptureLimit } from '../../../src/extension/settings.ts';

const MB = 1024 * 1024;

describe('readCapInput', () => {
  it('reads MB (of 1,048,576 bytes), decimals too, rounded to whole bytes, from 1 to 128', () => {
    expect(readCapInput('64')).toEqual({ bytes: 64 * MB });
    expect(readCapInput(' 1 ')).toEqual({ bytes: MB });
    expect(readCapInput('128')).toEqual({ bytes: 128 * MB });
    expect(readCapInput('1.5')).toEqual({ bytes: 1.5 * MB });
    expect(readCapInput('2.')).toEqual({ bytes: 2 * MB });
    expect(readCapInput('0100')).toEqual({ bytes: 100 * MB });
    expect(readCapInput('3.3333333')).toEqual({ bytes: Math.round(3.3333333 * MB) });
  });

  it('every cap it reads is one the extension stores', async () => {
    const area = { get: async () => ({}), set: async () => undefined };
    for (const t of ['1', '1.0000001', '2.5', '3.3333333', '64', '127.99', '128']) {
      const read = readCapInput(t);
      if (!('bytes' in read)) throw new Error(`${t}: ${read.error}`);
      await expect(setCaptureLimit(read.bytes, area)).resolves.toBeUndefined();
    }
  });

  it('says what is wrong with text that is no number of MB, and takes no part of it', () => {
    expect(readCapInput('')).toEqual({ error: 'Enter the cap in MB, a number from 1 to 128.' });
    expect(readCapInput('   ')).toEqual({ error: 'Enter the cap in MB, a number from 1 to 128.' });
    for (const t of ['abc', '12abc', '64 MB', '1e2', '-5', '+5', '1,5', '0x40', '.', 'Infinity', 'NaN', '1.2.3']) {
      expect(readCapInput(t)).toEqual({ error: `"${t}" is not a number of MB — enter a number from 1 to 128 (e.g. 128).` });
    }
  });

  it('refuses a cap out of bounds, saying which bound and why, rather than clamping it', () => {
    for (const t of ['0', '0.5', '0.99']) {
      expect(readCapInput(t)).toEqual({ error: `${t} MB is below the smallest cap, 1 MB: enter a number from 1 to 128.` });
    }
    for (const t of ['128.01', '256', '100000']) {
      expect(readCapInput(t)).toEqual({ error: `${t} MB is above the largest cap, 128 MB (more could exhaust the panel's memory): enter a number from 1 to 128.` });
    }
    expect(MIN_CAPTURE_LIMIT_BYTES).toBe(MB);
    expect(MAX_CAPTURE_LIMIT_BYTES).toBe(128 * MB);
  });
});

describe('capMB', () => {
  it('shows bytes as MB to two decimals at most, as the field and the toolbar show them', () => {
    expect(capMB(64 * MB)).toBe('64');
    expect(capMB(1.5 * MB)).toBe('1.5');
    expect(capMB(1_234_567)).toBe('1.18');
    expect(readCapInput(capMB(100 * MB))).toEqual({ bytes: 100 * MB }); // what the field starts with reads back
  });
});

describe('readCapField', () => {
  it('a stored cap of no whole 0.01 MB, shown unedited, reads as itself: Save keeps it, and no "Lower than now" on opening', () => {
    for (const stored of [1_234_567, 1_240_000]) { // capMB: "1.18" both, 1,237,320 bytes read — one above, one below
      expect(capMB(stored)).toBe('1.18');
      expect(readCapField(capMB(stored), stored)).toEqual({ bytes: stored });
      expect(readCapField(` ${capMB(stored)} `, stored)).toEqual({ bytes: stored });
      expect(lowerCapWarning(stored, (readCapField(capMB(stored), stored) as { bytes: number }).bytes)).toBeUndefined();
    }
    // Edited, it is what was typed (typed back to the same text: the stored cap, which it shows).
    expect(readCapField('1.19', 1_234_567)).toEqual({ bytes: Math.round(1.19 * MB) });
    expect(readCapField('1.180', 1_234_567)).toEqual({ bytes: Math.round(1.18 * MB) });
    expect(readCapField('abc', 1_234_567)).toEqual(readCapInput('abc'));
    expect(readCapField('1.18', undefined)).toEqual({ bytes: Math.round(1.18 * MB) }); // not read yet
  });
});

describe('lowerCapWarning', () => {
  it('says, before saving, that a lower cap evicts the oldest data of captures holding more', () => {
    expect(lowerCapWarning(64 * MB, 16 * MB)).toBe(
      'Lower than now (64 MB): a tab whose capture holds more than 16 MB evicts its oldest data as soon as you save, as it does at the cap — its replies continue from a digest of what went. Export… first to keep it all.',
    );
    expect(lowerCapWarning(64 * MB, 64 * MB)).toBeUndefined(); // nothing is lost
    expect(lowerCapWarning(64 * MB, 128 * MB)).toBeUndefined();
  });
});
