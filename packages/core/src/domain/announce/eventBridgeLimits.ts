/**
 * EventBridge's PutEvents limits, for the announcer that publishes within them and the local
 * bus that refuses what AWS would: 10 entries a call, 256 KB a call (and so an entry).
 */
export const MAX_PUT_EVENTS_ENTRIES = 10;
export const MAX_PUT_EVENTS_BYTES = 256 * 1024;

/** An entry as EventBridge sizes it (fields of any type: the local bus sizes what it is sent). */
export interface SizedEntry {
  Source?: unknown;
  DetailType?: unknown;
  Detail?: unknown;
  Resources?: unknown;
}

/** EventBridge's size of an entry: Source, DetailType, Detail, Resources, and 14 bytes for Time. */
export function putEventsEntryBytes(entry: SizedEntry): number {
  const utf8 = (value: unknown) => (typeof value === "string" ? Buffer.byteLength(value) : 0);
  const resources = Array.isArray(entry.Resources)
    ? entry.Resources.reduce((n: number, r) => n + utf8(r), 0)
    : 0;
  return utf8(entry.Source) + utf8(entry.DetailType) + utf8(entry.Detail) + resources + 14;
}
