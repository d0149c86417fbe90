// Terraform 1.14 list resources on the client's side: the async iterator over ListResource's server stream and the
// protobuf conversion of one event (the request and event types are in types.ts).
import type { CtyType } from "./cty/index.js";
import type { Diagnostic, ListResourceEvent } from "./types.js";
import { diagnosticsFromPb, fromDynamic, identityFromPb } from "./wire.js";
import type { Lean } from "../wire/shape.js";
import type * as tf6 from "../wire/tfplugin6.gen.js";

/** The types an event decodes with: the managed resource's state type and its identity type. */
export interface ListEventTypes {
  resource: CtyType;
  identity: CtyType | undefined;
}

/** One event; `diagnostics` converts its diagnostics (the client's scrubs the secrets handed to the provider). */
export function listEventFromPb(e: Lean<tf6.ListResource_Event>, types: ListEventTypes, diagnostics: (d: Lean<tf6.ListResource_Event>["diagnostic"]) => Diagnostic[] = diagnosticsFromPb): ListResourceEvent {
  const identity = e.identity?.identity_data ? identityFromPb(e.identity, types.identity) : undefined;
  const object = e.resource_object ? fromDynamic(e.resource_object, types.resource) : undefined;
  return {
    displayName: e.display_name ?? "",
    diagnostics: diagnostics(e.diagnostic),
    ...(identity !== undefined && identity !== null ? { identity } : {}),
    ...(object !== undefined && object !== null ? { resourceObject: object } : {}),
  };
}

/**
 * Turns a push-style server stream into an async iterator. `start` begins the call with a sink for messages and the
 * end; it returns the cancel of the call. Messages wait in a queue until read; a break or return out of a for-await
 * loop cancels the call, so a provider streaming more than the caller wants stops sending.
 */
export function pullStream<T>(start: (push: (item: T) => void, end: (err: Error | undefined) => void) => () => void): AsyncIterableIterator<T> & { cancel(): void } {
  const queue: T[] = [];
  let done = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const cancelCall = start(
    (item) => {
      if (done) return;
      queue.push(item);
      notify();
    },
    (err) => {
      if (done) return;
      done = true;
      failure = err;
      notify();
    },
  );
  const cancel = (): void => {
    if (done) return;
    done = true;
    queue.length = 0;
    cancelCall();
    notify();
  };
  const iterator: AsyncIterableIterator<T> & { cancel(): void } = {
    async next(): Promise<IteratorResult<T>> {
      for (;;) {
        if (queue.length > 0) return { value: queue.shift()!, done: false };
        if (done) {
          if (failure !== undefined) {
            const err = failure;
            failure = undefined;
            throw err;
          }
          return { value: undefined, done: true };
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    return(): Promise<IteratorResult<T>> {
      cancel();
      return Promise.resolve({ value: undefined, done: true });
    },
    cancel,
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
