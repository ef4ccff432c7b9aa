import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { processWide } from "../process-wide";
import { consumeRateLimit } from "./rate-limit";

// Next.js's bundles each load their own copy of rate-limiter-flexible; the limiters are
// process-wide, so a route may be handed a limiter made by another copy. A fresh CommonJS load
// of the library is such a copy: its over-budget answer is another class than ours.
function anotherCopyOfTheLibrary() {
  const require = createRequire(import.meta.url);
  const main = require.resolve("rate-limiter-flexible");
  const root = main.slice(0, main.lastIndexOf(`${path.sep}rate-limiter-flexible${path.sep}`));
  for (const loaded of Object.keys(require.cache))
    if (loaded.startsWith(`${root}${path.sep}rate-limiter-flexible${path.sep}`)) delete require.cache[loaded];
  return require("rate-limiter-flexible") as typeof import("rate-limiter-flexible");
}

describe("consumeRateLimit", () => {
  it("answers a 429 with Retry-After for an over-budget answer from another copy of the library", async () => {
    const copy = anotherCopyOfTheLibrary();
    const publicIp = new copy.RateLimiterMemory({ points: 1, duration: 60, keyPrefix: "copy" });
    const limiters = processWide("rate-limiters", () => ({}) as Record<string, unknown>);
    limiters.publicIp = publicIp;

    await consumeRateLimit("publicIp", "198.51.100.1");
    const refusal = await consumeRateLimit("publicIp", "198.51.100.1").catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 429, code: "rate_limited" });
    expect((refusal as { headers: Record<string, string> }).headers["Retry-After"]).toMatch(/^[1-9]\d*$/);
  });
});
