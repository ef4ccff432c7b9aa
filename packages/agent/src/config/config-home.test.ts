import { homedir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configHome } from "./config-home";

describe("configHome", () => {
  it.each([
    ["SERVICE_CONFIG_HOME wins", { SERVICE_CONFIG_HOME: "/srv/kit" }, "linux", "/srv/kit"],
    ["XDG_CONFIG_HOME on Linux", { XDG_CONFIG_HOME: "/x" }, "linux", "/x/crypto-checkout"],
    ["~/.config on Linux", {}, "linux", path.join(homedir(), ".config", "crypto-checkout")],
    [
      "Application Support on macOS",
      {},
      "darwin",
      path.join(homedir(), "Library", "Application Support", "crypto-checkout"),
    ],
    ["%APPDATA% on Windows", { APPDATA: "/appdata" }, "win32", path.join("/appdata", "crypto-checkout")],
  ] as const)("%s", (_name, env, platform, expected) => {
    expect(configHome(env as NodeJS.ProcessEnv, platform)).toBe(expected);
  });
});
