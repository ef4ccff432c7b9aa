import { db } from "@/lib/db/client";
import { oauthPreflight, oauthRoute, readOAuthParameters } from "@/lib/http/oauth-route";
import { clientAddress } from "@/lib/net/client-address";
import { authenticateClient } from "@/lib/oauth/authenticate-client";
import { clientCredentialsSchema, revocationRequestSchema } from "@/lib/oauth/oauth-schemas";
import { revokeToken } from "@/lib/oauth/revoke-token";

export const POST = oauthRoute(async ({ request }) => {
  const input = await readOAuthParameters(request, revocationRequestSchema.and(clientCredentialsSchema));
  const client = await authenticateClient(
    db(),
    input,
    request.headers.get("authorization"),
    clientAddress(request.headers),
  );
  await revokeToken(db(), client, input.token);
  return new Response(null, { status: 200 });
});
export const OPTIONS = oauthPreflight;
