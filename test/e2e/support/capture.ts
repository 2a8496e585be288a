// Reading a tab's capture in e2e tests: find a connection, rebuild its bytes, wait for its end.
import { expect } from '@playwright/test';
import type { CaptureRecord, ConnectionRecord, EndRecord, MessageRecord } from '../../../src/core/capture/model.ts';
import { recordsToBytes } from '../../../src/core/frames/utf8-chunks.ts';
import type { ExtensionBrowser } from './extension.ts';

export interface CapturedConnection {
  connection: ConnectionRecord;
  /** The body bytes rebuilt from the chunk records (lossless storage rule of utf8-chunks.ts). */
  bytes: Buffer;
  chunks: Extract<CaptureRecord, { kind: 'chunk' }>[];
  messages: MessageRecord[];
  end: EndRecord | undefined;
  records: CaptureRecord[];
}

export function connectionsMatching(records: CaptureRecord[], urlPart: string): ConnectionRecord[] {
  return records.filter((r): r is ConnectionRecord => r.kind === 'connection' && r.url.includes(urlPart));
}

export function captured(records: CaptureRecord[], connection: ConnectionRecord): CapturedConnection {
  const own = records.filter((r) => r.kind !== 'connection' && 'conn' in r && r.conn === connection.id);
  const chunks = own.filter((r): r is Extract<CaptureRecord, { kind: 'chunk' }> => r.kind === 'chunk');
  return {
    connection,
    bytes: Buffer.from(recordsToBytes(chunks)),
    chunks,
    messages: own.filter((r): r is MessageRecord => r.kind === 'message'),
    end: own.find((r): r is EndRecord => r.kind === 'end'),
    records: own,
  };
}

/** Polls the tab's capture until the connection whose URL contains `urlPart` has ended (or `until` holds). */
export async function waitForCapture(
  ext: Pick<ExtensionBrowser, 'records'>,
  tabId: number,
  urlPart: string,
  until: (c: CapturedConnection) => boolean = (c) => c.end !== undefined,
): Promise<CapturedConnection> {
  let found: CapturedConnection | undefined;
  await expect
    .poll(async () => {
      const records = await ext.records(tabId);
      const conns = connectionsMatching(records, urlPart);
      if (conns.length > 1) throw new Error(`${conns.length} connections match ${urlPart}`);
      found = conns[0] && captured(records, conns[0]);
      return found !== undefined && until(found);
    }, { message: `capture of ${urlPart}` })
    .toBe(true);
  return found as CapturedConnection;
}
