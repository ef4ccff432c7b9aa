import { oauthPreflight, oauthRoute } from "@/lib/http/oauth-route";
import { buildAuthorizationServerMetadata } from "@/lib/oauth/build-server-metadata";

export const dynamic = "force-dynamic";

export const GET = oauthRoute(async () => ({ body: buildAuthorizationServerMetadata() }));
export const OPTIONS = oauthPreflight;
