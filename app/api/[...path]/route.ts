import { publicRoute, unknownApiPath } from "@/lib/http/route";

// An unknown API path answers like the rest of the API, the JSON error envelope with the API's
// headers, instead of Next.js's HTML page for a missing one.
const unknownPath = publicRoute<{ path: string[] }>(async ({ request }) => {
  throw unknownApiPath(request);
});

export {
  unknownPath as DELETE,
  unknownPath as GET,
  unknownPath as PATCH,
  unknownPath as POST,
  unknownPath as PUT,
};
