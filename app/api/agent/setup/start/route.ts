import { startAgentSetupSchema } from "@/lib/agent-access/agent-access-schemas";
import { serializeStartedAgentSetup } from "@/lib/agent-access/serialize-agent-setup";
import { startAgentSetup } from "@/lib/agent-access/start-agent-setup";
import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { publicApiRoute } from "@/lib/http/route";
import { clientAddress, clientLimitKey } from "@/lib/net/client-address";
import { consumeRateLimit } from "@/lib/rate-limit/rate-limit";

export const POST = publicApiRoute(async ({ request }) => {
  const input = await readJson(request, startAgentSetupSchema);
  const client = clientAddress(request.headers);
  await consumeRateLimit("agentSetup", clientLimitKey(client));
  return {
    status: 201,
    body: serializeStartedAgentSetup(await startAgentSetup(db(), { ...input, clientAddress: client })),
  };
});
