// src/wire/rpc.ts warmChannel: one call through a TLS channel ahead of the first provider connection, to a listener of its own.
import http2 from "node:http2";
import net from "node:net";
import tls from "node:tls";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateClientCertificate } from "../../src/terraform/mtls.js";

type WarmChannel = typeof import("../../src/wire/rpc.js").warmChannel;
type Tls = Parameters<WarmChannel>[0];

/** A fresh copy of the module, so each case sees a process that has not warmed a channel yet. */
async function freshWarmChannel(): Promise<(tls: Tls) => Promise<void>> {
  vi.resetModules();
  const { warmChannel } = await import("../../src/wire/rpc.js");
  return (tls) => warmChannel(tls, PING, {});
}

const json = (v: object): Buffer => Buffer.from(JSON.stringify(v));
const PING = { path: "/test.Warm/Ping", originalName: "Ping", requestStream: false, responseStream: false, requestSerialize: json, requestDeserialize: json, responseSerialize: json, responseDeserialize: json };
const tlsOf = (c: { certPem: string; keyPem: string }): Tls => ({ ca: c.certPem, cert: c.certPem, key: c.keyPem, servername: "localhost" });

/** Watches the listener warmChannel makes (through a spy that keeps the real behaviour) and what reaches it. */
function watchListener(): { server: () => net.Server; peers: net.Socket[]; firstBytes: Buffer[] } {
  const createServer = vi.spyOn(net, "createServer");
  const peers: net.Socket[] = [];
  const firstBytes: Buffer[] = [];
  let server: net.Server | undefined;
  return {
    peers,
    firstBytes,
    server: () => {
      if (server === undefined) {
        server = createServer.mock.results[0]!.value as net.Server;
        server.on("connection", (peer: net.Socket) => {
          peers.push(peer);
          peer.once("data", (d: Buffer) => firstBytes.push(d));
        });
      }
      return server;
    },
  };
}

afterEach(() => vi.restoreAllMocks());

describe("warmChannel", () => {
  it("runs a call's TLS client up to its ClientHello, once per process, and closes everything it opened", async () => {
    const warm = await freshWarmChannel();
    const watch = watchListener();
    const connect = vi.spyOn(tls, "connect");
    const session = vi.spyOn(http2, "connect");
    const cert = await generateClientCertificate();
    const { certPem, keyPem } = cert;

    const first = warm(tlsOf(cert));
    const server = watch.server();
    expect(warm(tlsOf(cert))).toBe(first);
    await first;

    expect(connect).toHaveBeenCalledTimes(1);
    expect(session).toHaveBeenCalledTimes(1);
    expect(connect.mock.calls[0]![0]).toMatchObject({ host: "127.0.0.1", cert: certPem, key: keyPem, servername: "localhost", ALPNProtocols: ["h2"] });
    // 0x16: a TLS handshake record, the client's first flight.
    expect(watch.firstBytes.map((b) => b[0])).toEqual([0x16]);
    // The channel closes gracefully and the listener's side is gone, so the client's socket closes soon after.
    const client = connect.mock.results[0]!.value as tls.TLSSocket;
    let timer: NodeJS.Timeout | undefined;
    const closed = client.destroyed || (await Promise.race([new Promise<boolean>((r) => client.once("close", () => r(true))), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 2_000)))]));
    clearTimeout(timer);
    expect(closed, "the warm-up's client socket is still open").toBe(true);
    expect(watch.peers.map((p) => p.destroyed)).toEqual([true]);
    expect(server.listening).toBe(false);

    await warm(tlsOf(cert));
    expect(connect).toHaveBeenCalledTimes(1);
  });

  it("settles without throwing, its listener closed, when the certificate or key is unusable", async () => {
    const warm = await freshWarmChannel();
    const watch = watchListener();
    const warmed = warm({ ca: "not a certificate", cert: "not a certificate", key: "not a key", servername: "localhost" });
    const server = watch.server();
    await expect(warmed).resolves.toBeUndefined();
    expect(server.listening).toBe(false);
  });

  it("settles when the TLS client fails after connecting", async () => {
    const warm = await freshWarmChannel();
    const cert = await generateClientCertificate();
    vi.spyOn(tls, "connect").mockImplementationOnce(() => {
      const socket = new tls.TLSSocket(null as never);
      setImmediate(() => socket.emit("error", new Error("connection reset")));
      return socket;
    });
    await expect(warm(tlsOf(cert))).resolves.toBeUndefined();
  });
});
