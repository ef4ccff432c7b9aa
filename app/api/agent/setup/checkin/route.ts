import { checkInAgentSetup } from "@/lib/agent-access/check-in-agent-setup";
import { serializeIssuedAgentCredential } from "@/lib/agent-access/serialize-agent-credential";
import { serializePendingCheckin } from "@/lib/agent-access/serialize-agent-setup";
import { db } from "@/lib/db/client";
import { oneTimeTokenRoute } from "@/lib/http/route";

export const POST = oneTimeTokenRoute(async ({ token }) => {
  const result = await checkInAgentSetup(db(), token);
  return result.status === "pending"
    ? { status: 202, body: serializePendingCheckin() }
    : { body: serializeIssuedAgentCredential(result), headers: { "Cache-Control": "no-store" } };
});
