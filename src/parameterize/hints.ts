// The `pulumi package add` commands that messages tell the user to run, made from what the package was made of.
import { DEFAULT_REGISTRY_HOST, formatAddress, type ProviderAddress } from "../acquire/address.js";
import type { Selection } from "./args.js";

/** The provider argument of `package add`: a path, or the address as the user would type it (default host left out). */
export function providerArgument(source: { kind: "local"; path: string } | ({ kind: "registry" } & ProviderAddress) | { kind: "remote"; address: ProviderAddress }): string {
  if (source.kind === "local") return source.path;
  const a = source.kind === "remote" ? source.address : source;
  return a.host === DEFAULT_REGISTRY_HOST ? `${a.namespace}/${a.type}` : formatAddress(a);
}

/** A word as a POSIX shell reads it back; `<placeholders>` stay bare so that they read as something to fill in. */
function shellWord(word: string): string {
  if (/^[A-Za-z0-9_./:@=,+-]+$/.test(word) || /^<[^<>]+>[A-Za-z0-9_./-]*$/.test(word)) return word;
  return `"${word.replace(/(["\\$`])/g, "\\$1")}"`;
}

/**
 * `pulumi package add terraform-provider ARGS` that makes the same package again: the selection's flags follow the
 * arguments after `--`, as pulumi needs them.
 */
export function packageAddCommand(args: readonly string[], selection: Selection): string {
  const flags = [
    ...(selection.includes.length > 0 ? ["--include", selection.includes.join(",")] : []),
    ...(selection.excludes.length > 0 ? ["--exclude", selection.excludes.join(",")] : []),
    ...(selection.providerName !== undefined ? ["--package-name", selection.providerName] : []),
  ];
  const words = flags.length > 0 ? ["--", ...args, ...flags] : args;
  return ["pulumi", "package", "add", "terraform-provider", ...words].map(shellWord).join(" ");
}

/**
 * What to do when the stack's state was written by a newer release of the provider than this package runs: for a
 * registry provider, `package add` of a release newer than this one (the newest, which knows every schema version
 * before it); for a local binary, the newer build back at the path the SDK names.
 */
export function newerReleaseHint(p: {
  origin: { kind: "local"; path: string } | ({ kind: "registry" } & ProviderAddress);
  version: string;
  selection: Selection;
  name: string;
}): string {
  if (p.origin.kind === "local") {
    return `Put the build of ${p.origin.path} that last updated the stack back at that path (the SDK runs whatever binary is there)`;
  }
  const command = packageAddCommand([providerArgument(p.origin), `> ${p.version}`], p.selection);
  return (
    `Go back to a newer release: \`${command}\` takes the newest release after ${p.version} and regenerates the SDK ` +
    `(\`pulumi stack export\` names the release the stack last used: the "version" of its pulumi:providers:${p.name} resource)`
  );
}

/**
 * The warning for a package added without an exact version: `pulumi install` runs `package add`'s arguments again, so
 * an open constraint takes whatever release is newest then, and the SDK changes under the project. Names the command
 * that pins the release just taken.
 */
export function openVersionWarning(address: ProviderAddress, constraint: string, version: string, selection: Selection): string {
  const given = constraint === "" ? "no version was given" : `the version constraint "${constraint}" is open`;
  const pin = packageAddCommand([providerArgument({ kind: "remote", address }), version], selection);
  return (
    `${providerArgument({ kind: "remote", address })}: ${given}, so ${version} (the newest matching release) was taken, and every ` +
    `\`pulumi install\` resolves it again: a newer release there changes the SDK and the provider the stack runs. To pin ${version}: \`${pin}\``
  );
}
