# The one cache root of the build scripts and the one way they lock; sourced by scripts/build-*.sh.
#
# cache_root   ~/.cache/pulumi-tf-bridge-ts: everything the scripts build or download lives under it
# peer_cache   $TF_BRIDGE_PEER_CACHE, else $cache_root/peers: the Terraform providers, the reference, OpenTofu, Terraform
# pulumi_cache $PULUMI_CACHE, else $cache_root/pulumi: the Pulumi CLI, its language hosts and the converter
cache_root="$HOME/.cache/pulumi-tf-bridge-ts"
peer_cache="${TF_BRIDGE_PEER_CACHE:-$cache_root/peers}"
pulumi_cache="${PULUMI_CACHE:-$cache_root/pulumi}"

# hold_lock FILE
#   Waits for, then holds until the script exits, an exclusive flock(1) on FILE (created with its folder): concurrent
#   runs (test runs in several worktrees, parallel test workers) take turns, and each finds what the one before it built.
#   The lock is the open file, so it is released however the script ends, killed included; no stale lock is left.
hold_lock() {
  mkdir -p "$(dirname "$1")"
  local fd
  exec {fd}>"$1"
  flock "$fd"
}
