// A FAKE of the network path to public hosts, for tests only: an HTTP proxy on 127.0.0.1 that answers `CONNECT
// <host>:443` for the hosts it is given by tunnelling to a loopback server (the fake registry, whose certificate also
// names them), and `CONNECT 127.0.0.1:<port>` to that port. No public host is reachable here, and some programs ask
// one by name whatever their configuration says: Pulumi's Terraform converter looks provider versions up at
// registry.terraform.io itself (it reads no Terraform CLI configuration). A proxy is the one thing such a program
// lets a user point elsewhere (HTTPS_PROXY), so the program runs unchanged and reaches the fake under the public name,
// over TLS it verifies (SSL_CERT_FILE, NODE_EXTRA_CA_CERTS: the fake's CA). tinyproxy cannot do this: it resolves the
// name it is asked for. Every other CONNECT goes where it asks, as a company proxy's would (npm and pip, which honour
// HTTPS_PROXY too, still reach their package registries); each is recorded.
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";

export interface HostTunnel {
  /** http://127.0.0.1:<port>, for HTTPS_PROXY. */
  url: string;
  /** The CONNECT targets asked for, in order (`registry.terraform.io:443`). */
  connects: string[];
  stop(): Promise<void>;
}

/** Starts the proxy: each `host` of `routes` (port 443) goes to the loopback port it maps to, any other where it names. */
export async function startHostTunnel(routes: Record<string, number>): Promise<HostTunnel> {
  const connects: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => {
    res.writeHead(405, { "content-type": "text/plain" }).end("this test proxy only tunnels (CONNECT)\n");
  });
  server.on("connect", (req, client: Socket, head: Buffer) => {
    const target = req.url ?? "";
    connects.push(target);
    const [host, port] = [target.replace(/:\d+$/, ""), Number(/:(\d+)$/.exec(target)?.[1] ?? "443")];
    const routed = port === 443 ? routes[host] : undefined;
    const upstream = connect(routed ?? port, routed === undefined ? host : "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.once("close", () => sockets.delete(s));
      s.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
