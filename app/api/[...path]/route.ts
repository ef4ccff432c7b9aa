import { ServiceError } from "@/lib/errors";
import { publicRoute } from "@/lib/http/route";

// An unknown API path answers like the rest of the API, the JSON error envelope with the API's
// headers, instead of Next.js's HTML page for a missing one.
const unknownPath = publicRoute<{ path: string[] }>(async ({ request }) => {
  throw new ServiceError(
    404,
    "not_found_error",
    "unknown_path",
    `No API operation at ${request.method} ${request.nextUrl.pathname}. The operations are listed at /api/openapi.json.`,
  );
});

export {
  unknownPath as DELETE,
  unknownPath as GET,
  unknownPath as PATCH,
  unknownPath as POST,
  unknownPath as PUT,
};
