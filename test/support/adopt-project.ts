// The Terraform project the adoption e2e tests apply with OpenTofu: for_each with a key holding a space, count, a
// sensitive file, a secret random value and a module, over the random and local peers.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The root module's managed resources; a test appends what it needs beyond them (a data source). */
export const ADOPT_CONFIG = `
resource "random_pet" "pet" {
  for_each = toset(["a", "b c"])
  length   = 2
}
resource "random_password" "pw" {
  length = 12
}
resource "local_file" "f" {
  count    = 2
  filename = "\${path.module}/out-\${count.index}.txt"
  content  = "hello \${count.index}"
}
resource "local_sensitive_file" "s" {
  filename = "\${path.module}/secret.txt"
  content  = random_password.pw.result
}
module "m" {
  source = "./m"
}
`;

/** Every managed instance of ADOPT_CONFIG by its Terraform address. */
export const ADOPT_ADDRESSES = ["local_file.f[0]", "local_file.f[1]", "local_sensitive_file.s", "random_password.pw", 'random_pet.pet["a"]', 'random_pet.pet["b c"]', "module.m.random_id.i"];

/** Writes the project into `dir`: `config` as main.tf and module `m` with a random_id of `byteLength` bytes. */
export function writeAdoptProject(dir: string, config: string, byteLength = 4): void {
  mkdirSync(join(dir, "m"), { recursive: true });
  writeFileSync(join(dir, "main.tf"), config);
  writeFileSync(join(dir, "m", "main.tf"), `resource "random_id" "i" {\n  byte_length = ${byteLength}\n}\n`);
}
