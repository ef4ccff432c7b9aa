import { registerAgentSchema } from "@/lib/agent-access/agent-access-schemas";
import { collectAgentRegistration } from "@/lib/agent-access/collect-agent-registration";
import { serializeIssuedAgentCredential } from "@/lib/agent-access/serialize-agent-credential";
import { serializePendingRegistration } from "@/lib/agent-access/serialize-agent-registration";
import { startAgentRegistration } from "@/lib/agent-access/start-agent-registration";
import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { publicApiRoute } from "@/lib/http/route";
import { clientAddress } from "@/lib/net/client-address";
import { limitFailedAuthentications } from "@/lib/rate-limit/rate-limit";

// The first call (no check-in token) starts a signup; the same call with the token polls it.
export const POST = publicApiRoute(async ({ request }) => {
  const input = await readJson(request, registerAgentSchema);
  const client = clientAddress(request.headers);
  if (!input.checkinToken) {
    const { registration, ...started } = await startAgentRegistration(db(), input, { clientAddress: client });
    return { status: 202, body: serializePendingRegistration(registration, started) };
  }
  const result = await limitFailedAuthentications(client, () => collectAgentRegistration(db(), input));
  return result.status === "pending"
    ? { status: 202, body: serializePendingRegistration(result.registration) }
    : { body: serializeIssuedAgentCredential(result), headers: { "Cache-Control": "no-store" } };
});
