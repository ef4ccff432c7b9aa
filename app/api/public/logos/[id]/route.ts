import { db } from "@/lib/db/client";
import { publicApiRoute } from "@/lib/http/route";
import { getOrganizationLogo } from "@/lib/organizations/get-organization-logo";

/**
 * The bytes were sniffed on upload and only raster types are stored; the headers still forbid any
 * other reading of them (no sniffing, no script, no embedding elsewhere as a document).
 */
export const GET = publicApiRoute<{ id: string }>(async ({ params }) => {
  const logo = await getOrganizationLogo(db(), params.id);
  return new Response(new Uint8Array(logo.bytes), {
    headers: {
      "Content-Type": logo.contentType,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
});
