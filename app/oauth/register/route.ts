import { db } from "@/lib/db/client";
import { oauthPreflight, oauthRoute, readOAuthParameters } from "@/lib/http/oauth-route";
import { clientAddress, clientLimitKey } from "@/lib/net/client-address";
import { clientRegistrationSchema } from "@/lib/oauth/oauth-schemas";
import { registerClient } from "@/lib/oauth/register-client";
import { consumeRateLimit } from "@/lib/rate-limit/rate-limit";

export const POST = oauthRoute(async ({ request }) => {
  await consumeRateLimit("oauthRegistration", clientLimitKey(clientAddress(request.headers)));
  const input = await readOAuthParameters(request, clientRegistrationSchema, "invalid_client_metadata");
  return { status: 201, body: await registerClient(db(), input) };
});
export const OPTIONS = oauthPreflight;
