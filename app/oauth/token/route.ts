import { db } from "@/lib/db/client";
import { oauthPreflight, oauthRoute, readOAuthParameters } from "@/lib/http/oauth-route";
import { clientAddress } from "@/lib/net/client-address";
import { authenticateClient } from "@/lib/oauth/authenticate-client";
import { exchangeAuthorizationCode } from "@/lib/oauth/exchange-authorization-code";
import { clientCredentialsSchema, tokenRequestSchema } from "@/lib/oauth/oauth-schemas";
import { refreshAccessToken } from "@/lib/oauth/refresh-access-token";

export const POST = oauthRoute(async ({ request }) => {
  const input = await readOAuthParameters(request, tokenRequestSchema.and(clientCredentialsSchema));
  const client = await authenticateClient(
    db(),
    input,
    request.headers.get("authorization"),
    clientAddress(request.headers),
  );
  const body =
    input.grant_type === "authorization_code"
      ? await exchangeAuthorizationCode(db(), client, input)
      : await refreshAccessToken(db(), client, input);
  return { body, headers: { Pragma: "no-cache" } };
});
export const OPTIONS = oauthPreflight;
