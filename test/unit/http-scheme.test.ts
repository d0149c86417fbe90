// Http's own guard against URLs it cannot fetch: a file:, ftp: or data: URL fails at once as a protocol failure that
// is not retried, instead of the network error (with an empty host) fetch() gives for it.
import { describe, expect, it } from "vitest";
import { Http, HttpFailure } from "../../src/acquire/http.js";

describe("Http and URLs that are not http(s)", () => {
  it.each(["file:///etc/passwd", "ftp://127.0.0.1/x.zip", "data:text/plain,0000"])("%s: refused at once, not retried", async (url) => {
    const retries: string[] = [];
    const http = new Http({ tokenFor: () => undefined, metadataRetries: 3, downloadRetries: 3, onRetry: (m) => retries.push(m) });
    const e = await http.getBytes(new URL(url), "SHA256SUMS of random 1.0.0").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HttpFailure);
    expect(e).toMatchObject({ kind: "protocol", retryable: false, message: `SHA256SUMS of random 1.0.0: ${url} is not an http or https URL` });
    expect(retries).toEqual([]);
  });
});
