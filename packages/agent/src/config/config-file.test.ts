import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { configPath, readConfig, type StoredConfig, updateConfig, writeConfig } from "./config-file";

let root: string;
let home: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "kit-config-"));
  home = path.join(root, "crypto-checkout");
});
afterEach(() => rm(root, { recursive: true, force: true }));

const mode = async (file: string) => (await stat(file)).mode & 0o777;

function configWith(token: string): StoredConfig {
  return {
    credential: {
      token,
      credentialId: "agc_1",
      agentName: "agent",
      access: "write",
      organization: { id: "org_1", name: "Shop" },
      apiBaseUrl: "http://localhost:3000/api",
    },
    pendingSetups: {},
  };
}

describe("config.json", () => {
  it("is created with mode 0600 in a new 0700 directory", async () => {
    await writeConfig(home, configWith("sk_agent_one"));
    expect(await mode(home)).toBe(0o700);
    expect(await mode(configPath(home))).toBe(0o600);
    expect((await readConfig(home)).credential?.token).toBe("sk_agent_one");
  });

  it("makes an existing, too open directory private and replaces a too open file with a 0600 one", async () => {
    await mkdir(home, { mode: 0o755 });
    await chmod(home, 0o755);
    await writeFile(configPath(home), "{}", { mode: 0o644 });
    await chmod(configPath(home), 0o644);
    await writeConfig(home, configWith("sk_agent_two"));
    expect(await mode(home)).toBe(0o700);
    expect(await mode(configPath(home))).toBe(0o600);
  });

  it("is replaced atomically: readers during many writes always see one whole version", async () => {
    await writeConfig(home, configWith("sk_agent_0"));
    const padding = "x".repeat(200_000);
    let writing = true;
    const seen = new Set<string>();
    const reader = (async () => {
      while (writing) {
        const parsed = JSON.parse(await readFile(configPath(home), "utf8")) as StoredConfig;
        seen.add(parsed.credential?.token.slice(0, 12) ?? "");
      }
    })();
    for (let index = 1; index <= 30; index += 1) {
      await writeConfig(home, configWith(`sk_agent_${index}${padding}`));
    }
    writing = false;
    await reader;
    expect(seen.size).toBeGreaterThan(0);
    expect((await readdir(home)).sort()).toEqual(["config.json"]);
  });

  it("keeps the old file and leaves no temporary file when the replacement fails", async () => {
    await writeConfig(home, configWith("sk_agent_old"));
    const before = await readFile(configPath(home), "utf8");
    // A config.json that is a directory makes the final rename fail.
    await rm(configPath(home));
    await mkdir(configPath(home));
    await expect(writeConfig(home, configWith("sk_agent_new"))).rejects.toThrow();
    expect(await readdir(home)).toEqual(["config.json"]);
    await rm(configPath(home), { recursive: true });
    await writeFile(configPath(home), before, { mode: 0o600 });
    expect((await readConfig(home)).credential?.token).toBe("sk_agent_old");
  });

  it("reads a missing file as empty and updates keep what they do not change", async () => {
    expect(await readConfig(home)).toEqual({ pendingSetups: {} });
    await updateConfig(home, (config) => {
      config.credential = configWith("sk_agent_kept").credential;
    });
    await updateConfig(home, (config) => {
      config.webhook = {
        endpointId: "we_1",
        url: "http://127.0.0.1:9/webhooks",
        adapter: "NONE",
        signingSecret: "whsec_x",
        apiBaseUrl: "http://localhost:3000/api",
      };
    });
    const config = await readConfig(home);
    expect(config.credential?.token).toBe("sk_agent_kept");
    expect(config.webhook?.endpointId).toBe("we_1");
  });

  it("refuses a file that is not a kit configuration", async () => {
    await mkdir(home, { recursive: true });
    await writeFile(configPath(home), JSON.stringify({ credential: "plain" }));
    await expect(readConfig(home)).rejects.toThrow(/not a crypto-checkout configuration/);
  });
});
