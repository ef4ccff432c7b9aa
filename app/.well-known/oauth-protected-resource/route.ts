import { oauthPreflight, oauthRoute } from "@/lib/http/oauth-route";
import { buildProtectedResourceMetadata } from "@/lib/oauth/build-server-metadata";

export const dynamic = "force-dynamic";

export const GET = oauthRoute(async () => ({ body: buildProtectedResourceMetadata() }));
export const OPTIONS = oauthPreflight;
