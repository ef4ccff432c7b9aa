import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/private/organization/current/route";
import { db } from "@/lib/db/client";
import { bundledEntry } from "./test-support/bundled-entry";
import { callRoute } from "./test-support/call-route";

const root = path.resolve(import.meta.dirname, "..");
const execute = promisify(execFile);

/** Runs the real admin command as a separate process against this file's database. */
async function admin(...args: string[]) {
  try {
    // The command's sources bundled once for this file: tsx compiled them again in every process.
    const { stdout, stderr } = await execute(
      process.execPath,
      [await bundledEntry("scripts/admin.ts"), ...args],
      { cwd: root, env: { ...process.env, LOG_LEVEL: "silent" } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe("npm run admin", () => {
  // Each CLI process starts tsx and loads Prisma: seconds of CPU apiece, and on a 2-core machine
  // shared with the rest of CI (load 15 and more) it can take 30 s to get them.
  it("creates an organization whose printed key authenticates, then more keys, then revokes one", async () => {
    const created = await admin("org:create", "--name", "Acme", "--email", "Owner@Example.com", "--json");
    expect(created.code).toBe(0);
    const { organizationId, apiKey } = JSON.parse(created.stdout);
    expect(organizationId).toMatch(/^org_/);
    expect(apiKey).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);

    const owner = await db().membership.findFirstOrThrow({
      where: { organizationId },
      include: { user: true },
    });
    expect(owner).toMatchObject({ role: "OWNER", user: { email: "owner@example.com" } });
    const stored = await db().apiKey.findFirstOrThrow({ where: { organizationId } });
    expect(stored.hash).not.toContain(apiKey);
    expect(JSON.stringify(stored)).not.toContain(apiKey);

    expect(
      (await callRoute(GET, "/api/private/organization/current", { headers: bearer(apiKey) })).status,
    ).toBe(200);

    const second = JSON.parse((await admin("apikey:create", "--org", organizationId, "--json")).stdout);
    expect(second.apiKey).not.toBe(apiKey);
    const revoked = await admin("apikey:revoke", "--org", organizationId, "--key", second.apiKeyId, "--json");
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout).revokedAt).toEqual(expect.any(String));
    expect(
      (await callRoute(GET, "/api/private/organization/current", { headers: bearer(second.apiKey) })).status,
    ).toBe(401);
    expect(
      (await callRoute(GET, "/api/private/organization/current", { headers: bearer(apiKey) })).status,
    ).toBe(200);
  }, 120_000);

  it.each([
    [["org:create", "--name", "X"], "required option '--email <email>' not specified"],
    [["org:create", "--name", "X", "--email", "not-an-email"], "not an email address"],
    [["org:create", "--name", " ", "--email", "a@b.co"], "must not be empty"],
    [["apikey:create", "--org", "org_missing"], "no organization org_missing"],
    [["apikey:revoke", "--org", "org_missing", "--key", "key_missing"], "No such API key."],
    [["no:such-command"], "unknown command 'no:such-command'"],
  ])(
    "rejects %j with a readable message and exit code 2",
    async (args, message) => {
      const countBefore = await db().organization.count();
      const result = await admin(...args);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(await db().organization.count()).toBe(countBefore);
    },
    120_000,
  );
});
