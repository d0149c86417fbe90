// The many-container Docker stack that bench/docker.bench.ts and test/e2e/docker-interchange.test.ts run: N containers
// of LOCAL_IMAGE running `sleep`, without a network, each mounting a docker_volume of its own; the same stack as a Pulumi
// YAML program and as an OpenTofu configuration, so that each runs the same configuration on the same engine.
import { LOCAL_IMAGE } from "./docker.js";

export const CONTAINER_TOKEN = "docker:index/container:Container";
export const VOLUME_TOKEN = "docker:index/volume:Volume";

/** The engine's names for container and volume `i`: `prefix` keeps runs on one engine apart. */
export const containerName = (prefix: string, i: number): string => `${prefix}-c${i}`;
export const volumeName = (prefix: string, i: number): string => `${prefix}-v${i}`;

/**
 * The stack as a Pulumi YAML program (resources `v<i>` and `c<i>`), the provider's `host` coming from stack config.
 * Container `i` runs `sleep <seconds(i)>` (3600 by default): another number replaces it.
 */
export function dockerStackYaml(n: number, prefix: string, seconds: (i: number) => number = () => 3600): string {
  const lines = ["resources:"];
  for (let i = 0; i < n; i++) {
    lines.push(
      `  v${i}:`,
      `    type: ${VOLUME_TOKEN}`,
      "    properties:",
      `      name: ${volumeName(prefix, i)}`,
      `  c${i}:`,
      `    type: ${CONTAINER_TOKEN}`,
      "    properties:",
      `      name: ${containerName(prefix, i)}`,
      `      image: ${LOCAL_IMAGE}`,
      `      commands: [sleep, "${seconds(i)}"]`,
      "      networkMode: none",
      "      mounts:",
      "        - target: /data",
      `          source: \${v${i}.name}`,
      "          type: volume",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** The same stack as OpenTofu JSON configuration (main.tf.json), the provider's `host` set to `host`. */
export function dockerStackTf(n: number, prefix: string, host: string): Record<string, unknown> {
  const volumes: Record<string, unknown> = {};
  const containers: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    volumes[`v${i}`] = { name: volumeName(prefix, i) };
    containers[`c${i}`] = {
      name: containerName(prefix, i),
      image: LOCAL_IMAGE,
      command: ["sleep", "3600"],
      network_mode: "none",
      mounts: [{ target: "/data", source: `\${docker_volume.v${i}.name}`, type: "volume" }],
    };
  }
  return {
    terraform: { required_providers: { docker: { source: "kreuzwerker/docker" } } },
    provider: { docker: { host } },
    resource: { docker_volume: volumes, docker_container: containers },
  };
}
