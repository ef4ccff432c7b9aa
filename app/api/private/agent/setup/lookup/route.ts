import { lookUpAgentSetupSchema } from "@/lib/agent-access/agent-access-schemas";
import { lookUpAgentSetup } from "@/lib/agent-access/look-up-agent-setup";
import { serializeAgentSetupForApproval } from "@/lib/agent-access/serialize-agent-setup";
import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { sessionRoute } from "@/lib/http/route";

// The approval page's first step: the owner typed the agent's code; this answers what it asks.
export const POST = sessionRoute(async ({ request, user }) => {
  const { userCode } = await readJson(request, lookUpAgentSetupSchema);
  return {
    body: serializeAgentSetupForApproval(await lookUpAgentSetup(db(), { userId: user.id, userCode })),
  };
});
