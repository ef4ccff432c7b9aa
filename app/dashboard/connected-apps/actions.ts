"use server";

import { db } from "@/lib/db/client";
import { memberAction } from "@/lib/http/dashboard-session";
import { revokeGrantSchema } from "@/lib/oauth/oauth-schemas";
import { revokeGrant } from "@/lib/oauth/revoke-grant";

// Any member may disconnect an app: taking access away is always safe.
export const revokeGrantAction = memberAction("oauth.revoke", revokeGrantSchema, async (member, input) => {
  await revokeGrant(db(), member.organization.id, input.grantId);
  return { id: input.grantId };
});
