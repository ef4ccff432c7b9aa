import { db } from "../../lib/db/client";
import { randomBase62 } from "../../lib/ids";
import { createOrganization } from "../../lib/organizations/create-organization";

/** A fresh organization with an owner and a live API key, in the test file's database. */
export async function createTestOrganization(name = "Test Store") {
  const result = await createOrganization(db(), {
    name,
    ownerEmail: `owner-${randomBase62(8).toLowerCase()}@example.com`,
  });
  return {
    organization: result.organization,
    apiKey: result.apiKey,
    auth: { authorization: `Bearer ${result.apiKey}` },
  };
}
