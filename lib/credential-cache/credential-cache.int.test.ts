import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { revokeAgentCredential } from "@/lib/agent-access/revoke-agent-credential";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { db } from "@/lib/db/client";
import { authenticateStoredCredential } from "@/lib/merchant-auth/authenticate-stored-credential";
import { updateOrganization } from "@/lib/organizations/update-organization";
import { createTestAgentCredential, createTestOrganization } from "@/scripts/test-support/fixtures";
import { announceCredentialChange, announcerName } from "./announce-credential-change";
import { type CredentialCache, createCredentialCache, listenerName } from "./credential-cache";

// Two instances of the app, as far as credentials go: two caches, each with its own listener on
// this file's database, as two processes would have.
const caches: CredentialCache[] = [];
afterAll(async () => {
  await Promise.all(caches.map((cache) => cache.stop()));
});

// PGlite does not pass notifications between connections: there no cache ever serves entries.
const notificationsPass = inject("testDatabase").mode === "server";

async function twoInstances() {
  const instances = [0, 1].map(() => createCredentialCache(process.env.DATABASE_URL));
  caches.push(...instances);
  // A first read starts each listener; entries are served once it hears its probe.
  for (const cache of instances) await cache.read("warm-up", async () => null);
  if (notificationsPass) await expect.poll(() => instances.every((cache) => cache.serving)).toBe(true);
  return instances;
}

const apiKeySecret = (auth: { authorization: string }) => auth.authorization.replace("Bearer ", "");

describe("the verified-credential cache, on two instances sharing a database", () => {
  it.each<[string, "api_key" | "agent", () => Promise<{ secret: string; revoke: () => Promise<unknown> }>]>([
    [
      "an API key",
      "api_key",
      async () => {
        const { organization, auth } = await createTestOrganization();
        const key = await db().apiKey.findFirstOrThrow({ where: { organizationId: organization.id } });
        return {
          secret: apiKeySecret(auth),
          revoke: () => revokeApiKey(db(), { organizationId: organization.id, apiKeyId: key.id }),
        };
      },
    ],
    [
      "an agent credential",
      "agent",
      async () => {
        const { organization } = await createTestOrganization();
        const { credential, secret } = await createTestAgentCredential(organization.id);
        return {
          secret,
          revoke: () =>
            revokeAgentCredential(db(), {
              organizationId: organization.id,
              agentCredentialId: credential.id,
            }),
        };
      },
    ],
  ])("%s revoked on one instance is refused on the next request on both", async (_case, kind, make) => {
    const [first, second] = await twoInstances();
    const { secret, revoke } = await make();
    for (const cache of [first, second]) {
      expect(await authenticateStoredCredential(db(), kind, secret, cache)).toMatchObject({
        credential: { kind },
      });
    }
    await revoke();
    for (const cache of [first, second]) {
      expect(await authenticateStoredCredential(db(), kind, secret, cache)).toBeNull();
    }
  });

  it("serves a verified credential from memory, and a change of its organization's API version reaches both", async () => {
    const [first, second] = await twoInstances();
    const { organization, auth } = await createTestOrganization();
    const secret = apiKeySecret(auth);
    const original = await authenticateStoredCredential(db(), "api_key", secret, first);
    await authenticateStoredCredential(db(), "api_key", secret, second);
    // Written behind the caches' back: an instance serving from memory still has the old name.
    await db().apiKey.updateMany({ where: { organizationId: organization.id }, data: { name: "Renamed" } });
    for (const cache of [first, second]) {
      expect((await authenticateStoredCredential(db(), "api_key", secret, cache))?.name).toBe(
        notificationsPass ? original?.name : "Renamed",
      );
    }

    await updateOrganization(db(), organization.id, { apiVersion: "2026-11-22" });
    for (const cache of [first, second]) {
      expect(await authenticateStoredCredential(db(), "api_key", secret, cache)).toMatchObject({
        name: "Renamed",
        apiVersion: "2026-11-22",
      });
    }
  });

  it("does not keep a row read while a change was announced", async () => {
    const [cache] = await twoInstances();
    let release: (value: { id: string } | null) => void = () => {};
    const reading = cache.read(
      "in-flight",
      () => new Promise<{ id: string } | null>((resolve) => (release = resolve)),
    );
    cache.forget();
    release({ id: "before the change" });
    expect(await reading).toEqual({ id: "before the change" });
    expect(await cache.read("in-flight", async () => ({ id: "after the change" }))).toEqual({
      id: "after the change",
    });
  });
});

describe("announcing a change", () => {
  it("returns, and the process stays up, when the server closes its connection while it waits for answers", async () => {
    // A listener that never answers: the announcer waits for it until its timeout.
    const silent = new pg.Client(process.env.DATABASE_URL);
    await silent.connect();
    await silent.query(`SET application_name = '${listenerName}'`);
    const admin = new pg.Client(process.env.DATABASE_URL);
    await admin.connect();
    try {
      const { rows: clock } = await admin.query<{ now: Date }>("SELECT clock_timestamp() AS now");
      const announcing = announceCredentialChange(process.env.DATABASE_URL);
      if (notificationsPass) {
        // As a restart or failover would, while the announcer waits (its last query sent the notice).
        await expect
          .poll(async () => {
            const { rows } = await admin.query(
              `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
                WHERE datname = current_database() AND application_name = $1 AND backend_start >= $2
                  AND state = 'idle' AND query = 'SELECT pg_notify($1, $2)'`,
              [announcerName, clock[0].now],
            );
            return rows.length;
          })
          .toBe(1);
      }
      await expect(announcing).resolves.toBeUndefined();
    } finally {
      await Promise.all([silent.end(), admin.end()]);
    }
  });
});
