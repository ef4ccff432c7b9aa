import { getAgentSetupStatus } from "@/lib/agent-access/get-agent-setup-status";
import { db } from "@/lib/db/client";
import { oneTimeTokenRoute } from "@/lib/http/route";

export const GET = oneTimeTokenRoute(async ({ token }) => ({ body: await getAgentSetupStatus(db(), token) }));
