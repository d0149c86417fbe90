// The progress of one provider acquisition as a single object of optional callbacks, so a caller (the server, a
// test, a CLI) subscribes to the kinds it cares about and every layer passes one value down.

/** Every callback is optional; an absent one means nobody listens for that kind. */
export interface AcquireEvents {
  /** Ephemeral progress: resolving, download progress, unpacking, waiting for a lock, retries. */
  status?: (message: string) => void;
  /** Lasting notes: offline fallback, unsigned packages, ignored configuration, skipped versions. */
  warn?: (message: string) => void;
  /** Notes only worth a debug log line, such as a value that pins no lock hash. */
  debug?: (message: string) => void;
}

/** The same events with a no-op for each absent callback, so emitters need no `?.` and cannot forget one. */
export type AcquireEventSink = Required<AcquireEvents>;

const ignore = (): void => undefined;

export function eventSink(events: AcquireEvents = {}): AcquireEventSink {
  return { status: events.status ?? ignore, warn: events.warn ?? ignore, debug: events.debug ?? ignore };
}

