import { ApiReference } from "@scalar/nextjs-api-reference";

// The interactive reference loads its script from this app (see reference.js), not a CDN, so it
// works on machines without internet access.
export const GET = ApiReference({
  url: "/api/openapi.json",
  cdn: "/docs/api/reference.js",
  pageTitle: "API reference",
});
