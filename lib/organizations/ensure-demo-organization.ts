import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Db } from "../db/client";
import { createOrganization } from "./create-organization";

export type DemoCredentials = { organizationId: string; apiKey: string; ownerEmail: string };

const demoOwnerEmail = "demo@example.com";

/**
 * The zero-setup start needs a merchant to try things with. On an empty database it creates one
 * and keeps its key in the (owner-only) data directory, so every later start can print it again.
 */
export async function ensureDemoOrganization(database: Db, dataDir: string): Promise<DemoCredentials | null> {
  const file = path.join(dataDir, "demo-credentials.json");
  const saved = await readFile(file, "utf8").catch(() => null);
  if (saved) {
    const credentials = JSON.parse(saved) as DemoCredentials;
    const stillThere = await database.organization.findUnique({ where: { id: credentials.organizationId } });
    if (stillThere) return credentials;
  }
  if ((await database.organization.count()) > 0) return null;
  const created = await createOrganization(database, { name: "Demo Store", ownerEmail: demoOwnerEmail });
  const credentials = {
    organizationId: created.organization.id,
    apiKey: created.apiKey,
    ownerEmail: demoOwnerEmail,
  };
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return credentials;
}
