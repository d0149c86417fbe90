// src/wire/rpc.ts warmTls: the TLS client run once ahead of the first provider connection, on a listener of its own.
import net from "node:net";
import tls from "node:tls";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateClientCertificate } from "../../src/terraform/mtls.js";

/** A fresh copy of the module, so each case sees a process that has not warmed TLS yet. */
async function freshWarmTls(): Promise<typeof import("../../src/wire/rpc.js").warmTls> {
  vi.resetModules();
  return (await import("../../src/wire/rpc.js")).warmTls;
}

/** Watches the listener warmTls makes (through a spy that keeps the real behaviour) and what reaches it. */
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

describe("warmTls", () => {
  it("runs the TLS client up to its ClientHello, once per process, and closes everything it opened", async () => {
    const warmTls = await freshWarmTls();
    const watch = watchListener();
    const connect = vi.spyOn(tls, "connect");
    const { certPem, keyPem } = await generateClientCertificate();

    const first = warmTls(certPem, keyPem);
    const server = watch.server();
    expect(warmTls(certPem, keyPem)).toBe(first);
    await first;

    expect(connect).toHaveBeenCalledTimes(1);
    expect(connect.mock.calls[0]![0]).toMatchObject({ host: "127.0.0.1", cert: certPem, key: keyPem, servername: "localhost", ALPNProtocols: ["h2"] });
    // 0x16: a TLS handshake record, the client's first flight.
    expect(watch.firstBytes.map((b) => b[0])).toEqual([0x16]);
    expect((connect.mock.results[0]!.value as tls.TLSSocket).destroyed).toBe(true);
    expect(watch.peers.map((p) => p.destroyed)).toEqual([true]);
    expect(server.listening).toBe(false);

    await warmTls(certPem, keyPem);
    expect(connect).toHaveBeenCalledTimes(1);
  });

  it("settles without throwing, its listener closed, when the certificate or key is unusable", async () => {
    const warmTls = await freshWarmTls();
    const watch = watchListener();
    const warmed = warmTls("not a certificate", "not a key");
    const server = watch.server();
    await expect(warmed).resolves.toBeUndefined();
    expect(server.listening).toBe(false);
  });

  it("settles when the TLS client fails after connecting", async () => {
    const warmTls = await freshWarmTls();
    const { certPem, keyPem } = await generateClientCertificate();
    vi.spyOn(tls, "connect").mockImplementationOnce(() => {
      const socket = new tls.TLSSocket(null as never);
      setImmediate(() => socket.emit("error", new Error("connection reset")));
      return socket;
    });
    await expect(warmTls(certPem, keyPem)).resolves.toBeUndefined();
  });
});
