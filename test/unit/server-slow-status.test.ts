// Parameterize's status lines appear only when the step is slow (a download), never for a quick local launch.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { slowStatus } from "../../src/server/log.js";

describe("slowStatus", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("shows nothing for a step that ends in time", () => {
    const shown: string[] = [];
    const s = slowStatus((m) => shown.push(m), 500);
    s.update("Launching terraform-provider-random…");
    vi.advanceTimersByTime(100);
    s.done();
    vi.advanceTimersByTime(1_000);
    expect(shown).toEqual([]);
  });

  it("past the delay shows the latest line, then every later one, and nothing after done", () => {
    const shown: string[] = [];
    const s = slowStatus((m) => shown.push(m), 500);
    s.update("Resolving hashicorp/random (~> 3.0)…");
    s.update("Downloading terraform-provider-random 3.7.2: 1.0 MiB of 9.0 MiB (11%)");
    vi.advanceTimersByTime(500);
    expect(shown).toEqual(["Downloading terraform-provider-random 3.7.2: 1.0 MiB of 9.0 MiB (11%)"]);
    s.update("Installed hashicorp/random 3.7.2");
    s.done();
    s.update("Launching terraform-provider-random…");
    expect(shown).toEqual(["Downloading terraform-provider-random 3.7.2: 1.0 MiB of 9.0 MiB (11%)", "Installed hashicorp/random 3.7.2"]);
  });

  it("shows nothing at the delay when no line came yet, and the first one as soon as it comes", () => {
    const shown: string[] = [];
    const s = slowStatus((m) => shown.push(m), 500);
    vi.advanceTimersByTime(600);
    expect(shown).toEqual([]);
    s.update("Unpacking terraform-provider-random_3.7.2_linux_amd64.zip…");
    expect(shown).toEqual(["Unpacking terraform-provider-random_3.7.2_linux_amd64.zip…"]);
  });

  it("waits 0.5 s by default, as the service uses it", () => {
    const shown: string[] = [];
    const s = slowStatus((m) => shown.push(m));
    s.update("Launching terraform-provider-random…");
    vi.advanceTimersByTime(499);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual(["Launching terraform-provider-random…"]);
  });
});
