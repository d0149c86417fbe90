// The commands a person runs through `pulumi plugin run --kind resource terraform-provider@<version> -- <command> …`
// (`convert`, `adopt`): the one dispatcher the entry points (src/server/main.ts, snapshot.ts) ask before serving.
import { unlessStopping } from "./interrupt.js";
import { UsageError } from "./usage.js";

/** Each command, loaded only when run: the plugin the engine starts never pays for them. */
const COMMANDS: Record<string, () => Promise<(argv: readonly string[]) => Promise<number>>> = {
  convert: async () => (await import("./convert.js")).convertCommand,
  adopt: async () => (await import("./adopt.js")).adoptCommand,
};

/** Whether the plugin's arguments name a command (the engine never starts the plugin with one). */
export function isCommand(argv: readonly string[]): boolean {
  return Object.hasOwn(COMMANDS, argv[0] ?? "");
}

/**
 * Runs the command `argv[0]` names with the rest of `argv`; resolves with its exit code: 2 for a UsageError (its
 * message alone, after the command's name), 1 for any other failure.
 */
export async function runCommand(argv: readonly string[]): Promise<number> {
  const name = argv[0] ?? "";
  const load = COMMANDS[name];
  if (load === undefined) throw new Error(`no command ${name}`);
  try {
    const code = await (await load())(argv.slice(1));
    await unlessStopping();
    return code;
  } catch (e) {
    await unlessStopping();
    if (e instanceof UsageError) {
      process.stderr.write(`${name}: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`${name} failed: ${(e as Error).message}\n`);
    return 1;
  }
}
