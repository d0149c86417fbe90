// The Terraform name of the platform we run on (`linux_amd64`): which provider build to download and where it is cached.

const OS: Record<string, string> = { linux: "linux", darwin: "darwin", win32: "windows", freebsd: "freebsd", openbsd: "openbsd", netbsd: "netbsd", sunos: "solaris" };
const ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64", ia32: "386", arm: "arm", ppc64: "ppc64le", s390x: "s390x", riscv64: "riscv64" };

export interface Platform {
  os: string;
  arch: string;
}

/** Go's GOOS/GOARCH names for Node's process.platform/arch, as registries and cache directories spell them. */
export function currentPlatform(): Platform {
  return { os: OS[process.platform] ?? process.platform, arch: ARCH[process.arch] ?? process.arch };
}

export function formatPlatform(p: Platform): string {
  return `${p.os}_${p.arch}`;
}
