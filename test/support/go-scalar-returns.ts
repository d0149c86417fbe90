// The one workaround for Pulumi's Go generator writing `return nil, err` in a function whose result is a plain value.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Why the patch is needed, printed by every test that applies it. Pulumi's Go generator (pkg/v3 v3.248.0 to v3.276.0,
 * codegen/go/gen.go, genFunction) writes `return nil, err` after PkgGetPackageRef for every function of a
 * parameterized package, which is no Go for a `(bool, error)`, `(float64, error)`, `(int, error)` or `(string, error)` function.
 */
export const GO_SCALAR_RETURN_REASON =
  "Pulumi's Go generator writes it for a function returning a plain bool, number or string, and no schema form avoids it without changing the other languages' API (docs/troubleshooting.md)";

/** Replaces that `return nil, err` with the type's zero value in every such function of a generated Go package; names the files patched. */
export function patchScalarReturns(pkgDir: string): string[] {
  const patched: string[] = [];
  for (const f of readdirSync(pkgDir).filter((n) => n.endsWith(".go")).sort()) {
    const text = readFileSync(join(pkgDir, f), "utf8");
    const fixed = text.replace(/^func \w+\(ctx \*pulumi\.Context[^\n]*\) \((bool|float64|int|string), error\) \{\n[\s\S]*?^\}$/gm, (fn, type: string) =>
      fn.replaceAll("return nil, err", `return ${type === "bool" ? "false" : type === "string" ? '""' : "0"}, err`),
    );
    if (fixed !== text) {
      writeFileSync(join(pkgDir, f), fixed);
      patched.push(f);
    }
  }
  return patched;
}
